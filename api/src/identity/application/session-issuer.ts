import { Injectable } from '@nestjs/common';
import type { TokenPair } from '../../../../contracts/src/identity/account.contract';
import { requestContext } from '../../platform/logging/logger';
import { signAccessToken } from '../infrastructure/access-token';
import { IdentityContext } from './identity-context';

/** Opens a session for a user who proved who they are, and hands out its two tokens. */
@Injectable()
export class SessionIssuer {
  constructor(private readonly identity: IdentityContext) {}

  async signIn(
    user: { userId: string; email: string; isStaff: boolean },
    deviceFingerprint: string,
    at: Date,
  ): Promise<{ tokens: TokenPair; position: number }> {
    const { config, sessions, users } = this.identity;
    const { sessionId, refreshToken } = await sessions.open(user.userId, at, config.REFRESH_TOKEN_TTL_DAYS);
    const context = requestContext.getStore();
    const { position } = await users.execute(user.userId, {
      type: 'SignIn',
      at,
      sessionId,
      deviceFingerprint,
      ip: context?.ip ?? null,
      userAgent: context?.userAgent ?? null,
    });
    return { tokens: { access: this.accessToken(user, sessionId, at), refresh: refreshToken }, position };
  }

  accessToken(user: { userId: string; email: string; isStaff: boolean }, sessionId: string, at: Date): string {
    return signAccessToken(
      { sub: user.userId, user_id: user.userId, email: user.email, is_staff: user.isStaff, sid: sessionId },
      this.identity.secrets.jwtSecret,
      this.identity.config.ACCESS_TOKEN_TTL_SECONDS,
      at,
    );
  }
}
