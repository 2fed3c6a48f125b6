import { Body, Controller, Delete, Get, Param, Put, Query, Res, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Response } from 'express';
import { z } from 'zod';
import { type Caller, CurrentCaller, DeleteAccount, SetUserActive, StaffGuard } from '../../identity';
import { ruleBroken } from '../../platform/domain/errors';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { contentRange, type ListQuery, ListQueryPipe } from '../../platform/http/react-admin-list';
import { ZodPipe } from '../../platform/http/validation';
import { AdminUser, DeletedAnswer, uuid } from '@meshwork/contracts';
import { AdminUsers } from './admin-users.query';

const userId = new ZodPipe(uuid('User id'));
const UserUpdate = z.object({ is_active: z.boolean({ error: 'is_active must be true or false' }) }).loose();

/**
 * The console's users resource, in ra-data-simple-rest's dialect. Every change is an
 * identity command, so the event log records which staff member made it.
 */
@Tag('admin-panel')
@Controller('admin-panel/users')
@UseGuards(StaffGuard)
export class AdminUsersController {
  constructor(
    private readonly users: AdminUsers,
    private readonly commands: CommandBus,
  ) {}

  @Get()
  @Route({ summary: 'filter: {q: username, email or full name; is_active: true | false}', response: z.array(AdminUser) })
  async list(
    @Query(new ListQueryPipe(AdminUsers.sortable, ['created_at', 'DESC'])) list: ListQuery,
    @Res({ passthrough: true }) response: Response,
  ): Promise<AdminUser[]> {
    const { rows, total } = await this.users.list(list);
    response.setHeader('Content-Range', contentRange('users', list.offset, rows.length, total));
    response.setHeader('Access-Control-Expose-Headers', 'Content-Range');
    return rows;
  }

  @Get(':id')
  @Route({ response: AdminUser })
  one(@Param('id', userId) id: string): Promise<AdminUser> {
    return this.users.get(id);
  }

  /** react-admin sends the whole record; only `is_active` may change here. */
  @Put(':id')
  @Route({ summary: 'Activate or deactivate the user (`is_active`); other fields are ignored.', response: AdminUser })
  async update(
    @Param('id', userId) id: string,
    @Body(new ZodPipe(UserUpdate)) body: z.output<typeof UserUpdate>,
    @CurrentCaller() caller: Caller,
  ): Promise<AdminUser> {
    if (!body.is_active && id === caller.userId) throw ruleBroken('You cannot deactivate your own account.');
    await this.commands.execute(new SetUserActive(id, body.is_active, new Date()));
    return this.users.get(id);
  }

  @Delete(':id')
  @Route({ summary: "Delete the user's account, as they can themselves.", response: DeletedAnswer })
  async remove(@Param('id', userId) id: string, @CurrentCaller() caller: Caller): Promise<{ id: string }> {
    // Staff must not lock the console out by removing themselves; another staff member can.
    if (id === caller.userId) throw ruleBroken('You cannot delete your own account from the console.');
    await this.users.get(id);
    await this.commands.execute(new DeleteAccount(id, new Date()));
    return { id };
  }
}
