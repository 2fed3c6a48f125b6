import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TokenPair } from '@meshwork/contracts';
import { requestContext } from '../../platform/logging/logger';
import { IdentityContext } from './identity-context';
import { SessionIssuer } from './session-issuer';

/** A new session's tokens, and the log position of its SignIn. */
export interface OpenedSession {
  tokens: TokenPair;
  position: number;
}

/** Opens a session for a user who proved who they are (Login and Register send it). */
export class OpenSession {
  constructor(
    readonly user: { userId: string; email: string; isStaff: boolean },
    readonly deviceFingerprint: string,
    readonly at: Date,
    /** The desktop device signing in (its session is then the device's: revoking it ends it). */
    readonly deviceId: string | null = null,
  ) {}
}

/** Records the sign-in with the request's ip and user agent, and hands out the session's two tokens. */
@CommandHandler(OpenSession)
export class OpenSessionHandler implements ICommandHandler<OpenSession, OpenedSession> {
  constructor(
    private readonly identity: IdentityContext,
    private readonly issuer: SessionIssuer,
  ) {}

  async execute({ user, deviceFingerprint, at, deviceId }: OpenSession): Promise<OpenedSession> {
    const { config, sessions, users } = this.identity;
    const { sessionId, refreshToken } = await sessions.open(user.userId, at, config.REFRESH_TOKEN_TTL_DAYS, deviceId);
    const context = requestContext.getStore();
    const { position } = await users.execute(user.userId, {
      type: 'SignIn',
      at,
      sessionId,
      deviceFingerprint,
      ip: context?.ip ?? null,
      userAgent: context?.userAgent ?? null,
    });
    return { tokens: { access: this.issuer.accessToken(user, sessionId, at, deviceId), refresh: refreshToken }, position };
  }
}
