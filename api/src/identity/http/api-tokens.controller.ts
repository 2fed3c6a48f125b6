import { Body, Controller, Delete, Get, Param, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { AdminApiTokenList, ApiTokenList, CreateApiTokenRequest, CreatedApiToken, DeletedAnswer, uuid } from '@meshwork/contracts';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { ZodPipe } from '../../platform/http/validation';
import { ApiTokensQuery } from '../application/api-tokens.query';
import { CreateApiToken } from '../application/create-api-token.handler';
import { RevokeApiToken } from '../application/revoke-api-token.handler';
import { type Caller, CurrentCaller, SessionGuard, StaffGuard } from './auth.guard';

const tokenId = new ZodPipe(uuid('Token id'));
const userId = new ZodPipe(uuid('User id'));

/** The customer's API tokens (/settings/api): a signed-in session only, never a token itself. */
@Tag('api-tokens')
@Controller('users/api-tokens')
@UseGuards(SessionGuard)
export class ApiTokensController {
  constructor(
    private readonly commands: CommandBus,
    private readonly tokens: ApiTokensQuery,
  ) {}

  @Get()
  @Route({ summary: 'Your API tokens (never their secrets) and what your plan allows.', response: ApiTokenList })
  async list(@CurrentCaller() caller: Caller): Promise<ApiTokenList> {
    return {
      tokens: await this.tokens.ofUser(caller.userId),
      plan_scope: caller.user.api_token_scope,
      requests_per_minute: caller.user.api_requests_per_minute,
    };
  }

  @Post()
  @Route({ summary: 'Create an API token; its secret is in this answer only.', response: CreatedApiToken })
  create(
    @CurrentCaller() caller: Caller,
    @Body(new ZodPipe(CreateApiTokenRequest)) body: z.output<typeof CreateApiTokenRequest>,
  ): Promise<CreatedApiToken> {
    return this.commands.execute(new CreateApiToken(caller.userId, body.name, body.scope, body.expires_in_days, new Date()));
  }

  @Delete(':id')
  @Route({ summary: 'Revoke an API token: it is refused from the next request on.', response: DeletedAnswer })
  async revoke(@CurrentCaller() caller: Caller, @Param('id', tokenId) id: string): Promise<{ id: string }> {
    await this.commands.execute(new RevokeApiToken(caller.userId, id, 'owner', new Date()));
    return { id };
  }
}

/** Staff see a user's API tokens (never their secrets) and revoke them, from the user's page in the console. */
@Tag('admin-api-tokens')
@Controller(['admin-panel', 'admin'])
@UseGuards(StaffGuard)
export class ApiTokensAdminController {
  constructor(
    private readonly commands: CommandBus,
    private readonly tokens: ApiTokensQuery,
  ) {}

  @Get('users/:id/api-tokens')
  @Route({ summary: "A user's API tokens, revoked ones included, newest first.", response: AdminApiTokenList })
  async list(@Param('id', userId) id: string): Promise<AdminApiTokenList> {
    return { tokens: await this.tokens.ofUser(id, true) };
  }

  @Delete('users/:id/api-tokens/:tokenId')
  @Route({ summary: "Revoke a user's API token.", response: DeletedAnswer })
  async revoke(@Param('id', userId) id: string, @Param('tokenId', tokenId) token: string): Promise<{ id: string }> {
    await this.commands.execute(new RevokeApiToken(id, token, 'staff', new Date()));
    return { id: token };
  }
}
