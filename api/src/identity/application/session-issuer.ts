import { Injectable } from '@nestjs/common';
import { signAccessToken } from '../infrastructure/access-token';
import { IdentityContext } from './identity-context';

/** Signs the short-lived access token of a session (at sign-in and at every refresh). */
@Injectable()
export class SessionIssuer {
  constructor(private readonly identity: IdentityContext) {}

  accessToken(
    user: { userId: string; email: string; isStaff: boolean },
    sessionId: string,
    at: Date,
    deviceId: string | null = null,
  ): string {
    const device = deviceId ? { did: deviceId } : {};
    return signAccessToken(
      { sub: user.userId, user_id: user.userId, email: user.email, is_staff: user.isStaff, sid: sessionId, ...device },
      this.identity.secrets.jwtSecret,
      this.identity.config.ACCESS_TOKEN_TTL_SECONDS,
      at,
    );
  }
}
