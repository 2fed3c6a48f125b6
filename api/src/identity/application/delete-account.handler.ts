import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EndBillingForDeletedAccount } from './end-billing-for-deleted-account.command';
import { IdentityContext } from './identity-context';

export class DeleteAccount {
  constructor(
    readonly userId: string,
    readonly at: Date,
  ) {}
}

/**
 * Deletes the account: ends its paid subscription, records the deletion, frees the email
 * and username, ends every session, and destroys the user's personal-data key, after which
 * nobody can read their personal data from the event log (crypto-shredding; see
 * personal-data-vault.ts).
 */
@CommandHandler(DeleteAccount)
export class DeleteAccountHandler implements ICommandHandler<DeleteAccount, void> {
  constructor(
    private readonly identity: IdentityContext,
    private readonly commands: CommandBus,
  ) {}

  async execute({ userId, at }: DeleteAccount): Promise<void> {
    const { users, sessions, vault, directory } = this.identity;
    // Billing ends first: if the payment provider cannot be reached, nothing is deleted yet.
    await this.commands.execute(new EndBillingForDeletedAccount(userId, at));
    const { position } = await users.execute(
      userId,
      { type: 'Delete', at },
      {
        unique: (state) =>
          state.status === 'active' || state.status === 'deactivated'
            ? { release: [this.identity.emailKey(state.email), this.identity.usernameKey(state.username)] }
            : {},
      },
    );
    await sessions.revokeAll(userId, 'account-deleted', at);
    // After the read model has dropped the row: it needs the key to read the events before.
    await directory.caughtUpTo(position);
    await vault.destroyKey(userId);
  }
}
