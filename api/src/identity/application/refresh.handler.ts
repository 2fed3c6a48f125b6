import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { RefreshResponse } from '@meshwork/contracts';
import { unauthenticated } from '../../platform/domain/errors';
import { IdentityContext } from './identity-context';
import { SessionIssuer } from './session-issuer';

export class Refresh {
  constructor(
    readonly refreshToken: string,
    readonly at: Date,
  ) {}
}

export const sessionEnded = () => unauthenticated('Your session has ended. Please sign in again.');

/**
 * Spends a refresh token for a new pair. A token already spent means it leaked: the whole
 * session (token family) is revoked and the sign-out recorded on the user's stream.
 */
@CommandHandler(Refresh)
export class RefreshHandler implements ICommandHandler<Refresh, RefreshResponse> {
  constructor(
    private readonly identity: IdentityContext,
    private readonly issuer: SessionIssuer,
  ) {}

  async execute({ refreshToken, at }: Refresh): Promise<RefreshResponse> {
    const { sessions, users } = this.identity;
    const result = await sessions.rotate(refreshToken, at);
    if (result.status === 'reused') {
      await users
        .execute(result.userId, { type: 'SignOut', at, sessionId: result.sessionId, reason: 'refresh-token-reuse' })
        .catch(() => undefined);
      throw sessionEnded();
    }
    if (result.status === 'invalid') throw sessionEnded();
    const { state } = await users.load(result.userId);
    if (state.status !== 'active') {
      await sessions.revoke(result.sessionId, 'account-not-active', at);
      throw sessionEnded();
    }
    return {
      access: this.issuer.accessToken(
        { userId: state.userId, email: state.email, isStaff: state.isStaff },
        result.sessionId,
        at,
        result.deviceId,
      ),
      refresh: result.refreshToken,
    };
  }
}
