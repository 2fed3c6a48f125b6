import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { actAsAccount } from './acting-person';
import { IdentityContext } from './identity-context';

export class Logout {
  constructor(
    readonly refreshToken: string | null,
    /** The session of the access token, when the caller sent one. */
    readonly sessionId: string | null,
    readonly userId: string | null,
    readonly at: Date,
  ) {}
}

/** Ends the session named by the refresh token (or the access token): neither works again. */
@CommandHandler(Logout)
export class LogoutHandler implements ICommandHandler<Logout, void> {
  constructor(private readonly identity: IdentityContext) {}

  async execute({ refreshToken, sessionId, userId, at }: Logout): Promise<void> {
    const session =
      (refreshToken ? await this.identity.sessions.sessionOf(refreshToken) : null) ?? (sessionId && userId ? { sessionId, userId } : null);
    if (!session) return;
    // Signing out with the refresh token alone: its holder is that session's person.
    await actAsAccount(this.identity, session.userId);
    await this.identity.sessions.revoke(session.sessionId, 'logout', at);
    await this.identity.users
      .execute(session.userId, { type: 'SignOut', at, sessionId: session.sessionId, reason: 'logout' })
      .catch(() => undefined);
  }
}
