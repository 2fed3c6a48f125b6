import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { notFound } from '../../platform/domain/errors';
import { IdentityContext } from './identity-context';

export class RevokeApiToken {
  constructor(
    readonly userId: string,
    readonly tokenId: string,
    /** The owner from the site, or staff from the console (the event's actor says who). */
    readonly by: 'owner' | 'staff',
    readonly at: Date,
  ) {}
}

/**
 * Revokes one of a user's tokens: the row first, which refuses the token on every instance
 * before this answers (NOTIFY on commit), then the event for the audit trail. A token that
 * is not this user's, or already revoked, is not found.
 */
@CommandHandler(RevokeApiToken)
export class RevokeApiTokenHandler implements ICommandHandler<RevokeApiToken, void> {
  constructor(private readonly identity: IdentityContext) {}

  async execute({ userId, tokenId, by, at }: RevokeApiToken): Promise<void> {
    if (!(await this.identity.apiTokens.revoke(userId, tokenId, at))) throw notFound('No such API token.');
    await this.identity.tokenStreams.execute(tokenId, { type: 'RevokeApiToken', at, by });
  }
}
