import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ruleBroken } from '../../platform/domain/errors';
import { UniqueValueTakenError } from '../../platform/event-store/event-store.errors';
import { actAs } from './acting-person';
import { IdentityContext } from './identity-context';

export class RegisterAccount {
  constructor(
    readonly account: { email: string; username: string; passwordHash: string; isStaff: boolean; isAuditor: boolean; at: Date },
  ) {}
}

/**
 * Appends a new account's registration, claiming its email and username in the same append,
 * with its own personal-data key; answers the new user's id. Shared by sign-up and the
 * console's staff-made accounts, so both keep the same uniqueness rules and messages.
 */
@CommandHandler(RegisterAccount)
export class RegisterAccountHandler implements ICommandHandler<RegisterAccount, string> {
  constructor(private readonly identity: IdentityContext) {}

  async execute({ account }: RegisterAccount): Promise<string> {
    const identity = this.identity;
    const { email, username } = account;
    const userId = randomUUID();
    // Someone signing up is the actor of their own registration; staff making an account stay its actor.
    actAs({ userId, isStaff: account.isStaff });
    await identity.vault.createKey(userId);
    try {
      await identity.users.execute(
        userId,
        { type: 'RegisterUser', userId, ...account },
        { unique: () => ({ claim: [identity.emailKey(email), identity.usernameKey(username)] }) },
      );
    } catch (error) {
      await identity.vault.destroyKey(userId); // nothing was written with it
      if (error instanceof UniqueValueTakenError) {
        throw error.scope === 'user-email'
          ? ruleBroken('A user with this email already exists.', 'email')
          : ruleBroken('A user with that username already exists.', 'username');
      }
      throw error;
    }
    return userId;
  }
}
