import { type CanActivate, type ExecutionContext, Injectable, createParamDecorator } from '@nestjs/common';
import type { Request } from 'express';
import { DomainError } from '../../platform/domain/domain-error';
import { requestContext } from '../../platform/logging/logger';
import { IdentityContext } from '../application/identity-context';
import { verifyAccessToken } from '../infrastructure/access-token';

export interface Caller {
  userId: string;
  sessionId: string;
  email: string;
  isStaff: boolean;
}

type AuthedRequest = Request & { caller?: Caller };

export const notSignedIn = () => new DomainError(401, 'Authentication required. Please log in.');

/**
 * Requires a valid bearer token whose session is still open: signing out, a password
 * change or reset, deactivation and refresh-token theft all end access at once, not when
 * the token expires. The caller becomes the actor of the events the request causes.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(private readonly identity: IdentityContext) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthedRequest>();
    const caller = await this.callerOf(request);
    if (!caller) throw notSignedIn();
    request.caller = caller;
    const store = requestContext.getStore();
    if (store) Object.assign(store, { userId: caller.userId, isStaff: caller.isStaff });
    return true;
  }

  async callerOf(request: Request): Promise<Caller | null> {
    const header = request.header('authorization');
    if (!header?.startsWith('Bearer ')) return null;
    const now = new Date();
    const claims = verifyAccessToken(header.slice('Bearer '.length).trim(), this.identity.secrets.jwtSecret, now);
    if (!claims || !(await this.identity.sessions.isOpen(claims.sid, now))) return null;
    return { userId: claims.sub, sessionId: claims.sid, email: claims.email, isStaff: claims.is_staff };
  }
}

/** Staff only: signed-in non-staff get 403. */
@Injectable()
export class StaffGuard implements CanActivate {
  constructor(private readonly auth: AuthGuard) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await this.auth.canActivate(context);
    if (!context.switchToHttp().getRequest<AuthedRequest>().caller?.isStaff)
      throw new DomainError(403, 'Access denied. Admin privileges required.');
    return true;
  }
}

/** The authenticated caller of a guarded route. */
export const CurrentCaller = createParamDecorator((_data: unknown, context: ExecutionContext): Caller => {
  return context.switchToHttp().getRequest<AuthedRequest>().caller!;
});
