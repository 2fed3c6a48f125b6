import { randomUUID } from 'node:crypto';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { AuthResponse } from '@meshwork/contracts';
import { ruleBroken } from '../../platform/domain/errors';
import { UniqueValueTakenError } from '../../platform/event-store/event-store.errors';
import { hashPassword } from '../infrastructure/password-hasher';
import { IdentityContext } from './identity-context';
import { type OpenedSession, OpenSession } from './open-session.handler';

export class Register {
  constructor(
    readonly email: string,
    readonly username: string,
    readonly password: string,
    readonly isStaff: boolean,
    readonly at: Date,
    readonly deviceFingerprint = 'web-browser',
  ) {}
}

/** Creates the account (email and username unique, claimed in the append) and signs it in. */
@CommandHandler(Register)
export class RegisterHandler implements ICommandHandler<Register, AuthResponse> {
  constructor(
    private readonly identity: IdentityContext,
    private readonly commands: CommandBus,
  ) {}

  async execute({ email, username, password, isStaff, at, deviceFingerprint }: Register): Promise<AuthResponse> {
    const { users, vault, directory } = this.identity;
    const userId = randomUUID();
    const passwordHash = await hashPassword(password);
    await vault.createKey(userId);
    try {
      await users.execute(
        userId,
        { type: 'RegisterUser', at, userId, email, username, passwordHash, isStaff },
        {
          unique: () => ({ claim: [this.identity.emailKey(email), this.identity.usernameKey(username)] }),
        },
      );
    } catch (error) {
      await vault.destroyKey(userId); // nothing was written with it
      if (error instanceof UniqueValueTakenError) {
        throw error.scope === 'user-email'
          ? ruleBroken('A user with this email already exists.', 'email')
          : ruleBroken('A user with that username already exists.', 'username');
      }
      throw error;
    }
    const { tokens, position } = await this.commands.execute<OpenSession, OpenedSession>(
      new OpenSession({ userId, email, isStaff }, deviceFingerprint, at),
    );
    await directory.caughtUpTo(position);
    return { tokens, user: (await directory.findById(userId))! };
  }
}
