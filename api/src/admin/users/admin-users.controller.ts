import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Response } from 'express';
import { z } from 'zod';
import {
  type Caller,
  ChangeUserRoles,
  CreateUser,
  CurrentCaller,
  DeleteAccount,
  SetUserActive,
  StaffGuard,
  UpdateProfile,
} from '../../identity';
import { ruleBroken } from '../../platform/domain/errors';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { contentRange, type ListQuery, ListQueryPipe } from '../../platform/http/react-admin-list';
import { ZodPipe } from '../../platform/http/validation';
import { AdminUser, AdminUserCreate, AdminUserUpdate, DeletedAnswer, uuid } from '@meshwork/contracts';
import { AdminUsers } from './admin-users.query';

const userId = new ZodPipe(uuid('User id'));

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

  @Post()
  @HttpCode(201)
  @Route({ summary: 'Create a customer, staff member or auditor; they are mailed a link to choose a password.', response: AdminUser })
  async create(@Body(new ZodPipe(AdminUserCreate)) body: z.output<typeof AdminUserCreate>): Promise<AdminUser> {
    const { email, username, first_name, last_name, is_staff, is_auditor } = body;
    const id = await this.commands.execute<CreateUser, string>(
      new CreateUser({ email, username, firstName: first_name, lastName: last_name, isStaff: is_staff, isAuditor: is_auditor }, new Date()),
    );
    return this.users.get(id);
  }

  /**
   * react-admin sends the whole record; of `is_active`, the names and the staff and auditor
   * flags, those that differ from the user's change, each as its own command.
   */
  @Put(':id')
  @Route({ summary: 'Change is_active, first_name, last_name, is_staff or is_auditor; other fields are ignored.', response: AdminUser })
  async update(
    @Param('id', userId) id: string,
    @Body(new ZodPipe(AdminUserUpdate)) body: z.output<typeof AdminUserUpdate>,
    @CurrentCaller() caller: Caller,
  ): Promise<AdminUser> {
    const user = await this.users.get(id);
    const at = new Date();
    const roles = { isStaff: body.is_staff ?? user.is_staff, isAuditor: body.is_auditor ?? user.is_auditor };
    const rolesChange = roles.isStaff !== user.is_staff || roles.isAuditor !== user.is_auditor;
    // Staff must not lock the console out by removing their own rights; another staff member can.
    if (id === caller.userId && body.is_active === false) throw ruleBroken('You cannot deactivate your own account.');
    if (id === caller.userId && rolesChange) throw ruleBroken('You cannot change your own staff or auditor role.', 'is_staff');
    const names = { first_name: body.first_name, last_name: body.last_name };
    if ((names.first_name ?? user.first_name) !== user.first_name || (names.last_name ?? user.last_name) !== user.last_name)
      await this.commands.execute(new UpdateProfile(id, names, at, true));
    if (rolesChange) await this.commands.execute(new ChangeUserRoles(id, roles, at));
    if (body.is_active !== undefined && body.is_active !== user.is_active)
      await this.commands.execute(new SetUserActive(id, body.is_active, at));
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
