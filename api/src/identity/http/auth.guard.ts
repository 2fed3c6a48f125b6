import { type CanActivate, type ExecutionContext, Injectable, createParamDecorator } from '@nestjs/common';
import type { Request } from 'express';
import { forbidden, unauthenticated } from '../../platform/domain/errors';
import { requestContext } from '../../platform/logging/logger';
import type { GuardAnswers } from '../../platform/http/openapi/route-inputs';
import { IdentityContext } from '../application/identity-context';
import type { UserRow } from '../application/user-directory';
import { type AccessClaims, verifyAccessToken } from '../infrastructure/access-token';

const MAX_VERIFIED_TOKENS = 10_000;

export interface Caller {
  userId: string;
  sessionId: string;
  isStaff: boolean;
  /** The caller's row of the users read model, as of this request. */
  user: UserRow;
}

type AuthedRequest = Request & { caller?: Caller };

/**
 * Requires a valid bearer token whose session is still open: signing out, a password
 * change or reset, deactivation and refresh-token theft all end access at once, not when
 * the token expires. The caller becomes the actor of the events the request causes.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  static readonly openApi: GuardAnswers = { bearer: true, errors: [401] };
  private readonly verifiedTokens = new Map<string, AccessClaims>();

  constructor(private readonly identity: IdentityContext) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthedRequest>();
    const caller = await this.callerOf(request);
    if (!caller) throw unauthenticated();
    request.caller = caller;
    const store = requestContext.getStore();
    if (store) Object.assign(store, { userId: caller.userId, isStaff: caller.isStaff });
    return true;
  }

  async callerOf(request: Request): Promise<Caller | null> {
    const header = request.header('authorization');
    if (!header?.startsWith('Bearer ')) return null;
    const now = new Date();
    const claims = this.verified(header.slice('Bearer '.length).trim(), now);
    const user = claims && (await this.identity.signedIn.of(claims.sid, now));
    if (!user || user.id !== claims.sub) return null;
    return { userId: user.id, sessionId: claims.sid, isStaff: user.is_staff, user };
  }

  /**
   * The token's claims, remembering tokens already verified: a signed token never changes,
   * so only its expiry needs checking again. Revocation is the session lookup's business.
   */
  private verified(token: string, now: Date): AccessClaims | null {
    const known = this.verifiedTokens.get(token);
    if (known) return known.exp > now.getTime() / 1000 ? known : null;
    const claims = verifyAccessToken(token, this.identity.secrets.jwtSecret, now);
    if (claims) {
      if (this.verifiedTokens.size >= MAX_VERIFIED_TOKENS) this.verifiedTokens.delete(this.verifiedTokens.keys().next().value!);
      this.verifiedTokens.set(token, claims);
    }
    return claims;
  }
}

/** Staff only: signed-in non-staff get 403. */
@Injectable()
export class StaffGuard implements CanActivate {
  static readonly openApi: GuardAnswers = { bearer: true, errors: [401, 403] };
  constructor(private readonly auth: AuthGuard) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await this.auth.canActivate(context);
    if (!context.switchToHttp().getRequest<AuthedRequest>().caller?.isStaff) throw forbidden('Access denied. Admin privileges required.');
    return true;
  }
}

/** The authenticated caller of a guarded route. */
export const CurrentCaller = createParamDecorator((_data: unknown, context: ExecutionContext): Caller => {
  return context.switchToHttp().getRequest<AuthedRequest>().caller!;
});
