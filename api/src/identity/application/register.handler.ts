import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { AuthResponse } from '@meshwork/contracts';
import { hashPassword } from '../infrastructure/password-hasher';
import { IdentityContext } from './identity-context';
import { type OpenedSession, OpenSession } from './open-session.handler';
import { RegisterAccount } from './register-account.handler';

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
    const userId = await this.commands.execute<RegisterAccount, string>(
      new RegisterAccount({
        email,
        username,
        passwordHash: await hashPassword(password),
        isStaff,
        isAuditor: false,
        at,
      }),
    );
    const { tokens, position } = await this.commands.execute<OpenSession, OpenedSession>(
      new OpenSession({ userId, email, isStaff }, deviceFingerprint, at),
    );
    await this.identity.directory.caughtUpTo(position);
    return { tokens, user: (await this.identity.directory.findById(userId))! };
  }
}
