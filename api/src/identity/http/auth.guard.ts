import { type ExecutionContext, Injectable, createParamDecorator } from '@nestjs/common';
import { AuthGuard as PassportAuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import { forbidden, unauthenticated } from '../../platform/domain/errors';
import { requestContext } from '../../platform/logging/logger';
import type { GuardAnswers } from '../../platform/http/openapi/route-inputs';
import { AccessTokenStrategy, type Caller } from './access-token.strategy';

export type { Caller } from './access-token.strategy';

type AuthedRequest = Request & { caller?: Caller | null };

/**
 * Requires a valid bearer token whose session is still open, checked by passport with the
 * access-token strategy. The caller lands on `request.caller` and becomes the actor of the
 * events the request causes.
 */
@Injectable()
export class AuthGuard extends PassportAuthGuard() {
  // 403 and 429: an API token's scope and rate (access-token.strategy.ts).
  static readonly openApi: GuardAnswers = { bearer: true, errors: [401, 403, 429] };

  constructor(strategy: AccessTokenStrategy) {
    // Every request carries its token: no passport session. `caller` is what the routes read.
    super({ defaultStrategy: strategy.name, session: false, property: 'caller' });
  }

  /** Passport's verdict: the caller, or the spec's 401 body for no token, a bad one or an ended session. */
  override handleRequest<T = Caller>(error: unknown, caller: Caller | false): T {
    if (error) throw error;
    if (!caller) throw unauthenticated();
    const store = requestContext.getStore();
    if (store) Object.assign(store, { userId: caller.userId, isStaff: caller.isStaff, apiTokenId: caller.apiToken?.id ?? null });
    return caller as T;
  }
}

/** What a route that an API token may never reach answers such a token (issue 35). */
function refuseApiToken(caller: Caller): void {
  if (caller.apiToken) throw forbidden('API tokens cannot do this: sign in on the site.');
}

/**
 * A signed-in session only, never an API token: managing tokens, the password, deleting the
 * account. A leaked token must not be able to lock its owner out or mint more tokens.
 */
@Injectable()
export class SessionGuard extends AuthGuard {
  static override readonly openApi: GuardAnswers = { bearer: true, sessionOnly: true, errors: [401, 403, 429] };

  override handleRequest<T = Caller>(error: unknown, caller: Caller | false): T {
    const signedIn = super.handleRequest<Caller>(error, caller);
    refuseApiToken(signedIn);
    return signedIn as T;
  }
}

/** Methods that change nothing: what an auditor may call. */
const READ_METHODS = new Set(['GET', 'HEAD']);

/**
 * The console's guard. Staff may call everything; auditors (read-only staff) may read, and
 * every write of theirs is refused with 403, whichever console route it is; anyone else gets 403.
 * Being method-based, a new console route is closed to auditors' writes without anyone
 * remembering to say so.
 */
@Injectable()
export class StaffGuard extends AuthGuard {
  static override readonly openApi: GuardAnswers = { bearer: true, sessionOnly: true, errors: [401, 403, 429] };

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    await super.canActivate(context);
    const request = context.switchToHttp().getRequest<AuthedRequest>();
    const caller = request.caller!;
    refuseApiToken(caller);
    if (caller.isStaff) return true;
    if (!caller.isAuditor) throw forbidden('Access denied. Admin privileges required.');
    if (!READ_METHODS.has(request.method)) throw forbidden('Auditors have read-only access: this change needs a staff member.');
    return true;
  }
}

/**
 * Anyone who uses the console, staff or auditor, for any method: only for what the console
 * itself records about its use (a screen's crash report), never for changes to the product.
 */
@Injectable()
export class ConsoleUserGuard extends AuthGuard {
  static override readonly openApi: GuardAnswers = { bearer: true, sessionOnly: true, errors: [401, 403, 429] };

  override handleRequest<T = Caller>(error: unknown, caller: Caller | false): T {
    const signedIn = super.handleRequest<Caller>(error, caller);
    refuseApiToken(signedIn);
    if (!signedIn.isStaff && !signedIn.isAuditor) throw forbidden('Access denied. Admin privileges required.');
    return signedIn as T;
  }
}

/**
 * For calls that work with or without a caller (logout): a valid token gives the caller, no
 * token or a refused one gives null. It adds nothing to the route's answers.
 */
@Injectable()
export class OptionalAuthGuard extends AuthGuard {
  // 403 and 429: an API token's scope and rate are checked before the route is known (access-token.strategy.ts).
  static override readonly openApi: GuardAnswers = { errors: [403, 429] };

  override handleRequest<T = Caller | null>(error: unknown, caller: Caller | false): T {
    return (error || caller ? super.handleRequest(error, caller) : null) as T;
  }
}

/** The caller of a guarded route (null behind `OptionalAuthGuard` when there is none). */
export const CurrentCaller = createParamDecorator((_data: unknown, context: ExecutionContext): Caller => {
  return context.switchToHttp().getRequest<AuthedRequest>().caller!;
});
