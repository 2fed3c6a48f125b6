import type { ApiTokenScope, ApiTokenScopeLimit } from '@meshwork/contracts';
import { type Decider, unreachable } from '../../platform/domain/decider';
import { conflict, notFound, ruleBroken } from '../../platform/domain/errors';

export type ApiTokenCommand =
  | {
      type: 'CreateApiToken';
      at: Date;
      tokenId: string;
      userId: string;
      name: string;
      scope: ApiTokenScope;
      lastFour: string;
      expiresAt: string | null;
      /** The owner's plan's widest scope now, and how many unrevoked tokens they hold. */
      planScope: ApiTokenScopeLimit;
      activeTokens: number;
      maxTokens: number;
    }
  | { type: 'RevokeApiToken'; at: Date; by: 'owner' | 'staff' };

/** A token's lifecycle (stream `apitoken-<id>`): the audit trail's record of who made and ended it. Never the secret. */
export type ApiTokenEvent =
  | {
      type: 'ApiTokenCreated';
      data: { tokenId: string; userId: string; name: string; scope: ApiTokenScope; lastFour: string; expiresAt: string | null };
    }
  | { type: 'ApiTokenRevoked'; data: { tokenId: string; userId: string; by: 'owner' | 'staff' } };

export type ApiTokenState = { status: 'none' } | { status: 'active' | 'revoked'; tokenId: string; userId: string };

/** Scopes from narrowest: a token's effective scope is the narrower of its own and its plan's. */
export const SCOPE_ORDER: readonly ApiTokenScopeLimit[] = ['none', 'read', 'read_write'];

export const narrowerScope = (a: ApiTokenScopeLimit, b: ApiTokenScopeLimit): ApiTokenScopeLimit =>
  SCOPE_ORDER.indexOf(a) <= SCOPE_ORDER.indexOf(b) ? a : b;

export const apiTokenDecider: Decider<ApiTokenCommand, ApiTokenEvent, ApiTokenState> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'CreateApiToken': {
        if (state.status !== 'none') throw conflict('This token already exists.');
        if (command.planScope === 'none') throw ruleBroken('Your plan does not include API tokens. Upgrade to use the API.', 'scope');
        if (narrowerScope(command.scope, command.planScope) !== command.scope)
          throw ruleBroken('Your plan allows read-only API tokens. Upgrade for read-write tokens.', 'scope');
        if (command.activeTokens >= command.maxTokens)
          throw ruleBroken(`You can have at most ${command.maxTokens} API tokens. Revoke one you no longer use first.`);
        const { tokenId, userId, name, scope, lastFour, expiresAt } = command;
        return [{ type: 'ApiTokenCreated', data: { tokenId, userId, name, scope, lastFour, expiresAt } }];
      }
      case 'RevokeApiToken':
        if (state.status === 'none') throw notFound();
        if (state.status === 'revoked') return [];
        return [{ type: 'ApiTokenRevoked', data: { tokenId: state.tokenId, userId: state.userId, by: command.by } }];
      default:
        return unreachable(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'ApiTokenCreated':
        return { status: 'active', tokenId: event.data.tokenId, userId: event.data.userId };
      case 'ApiTokenRevoked':
        return state.status === 'none' ? state : { ...state, status: 'revoked' };
      default:
        return unreachable(event);
    }
  },
};
