import { randomBytes } from 'node:crypto';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { hashPassword } from '../infrastructure/password-hasher';
import { IdentityContext } from './identity-context';
import { RegisterAccount } from './register-account.handler';
import { SendPasswordLink } from './send-password-link.handler';

export class CreateUser {
  constructor(
    readonly account: { email: string; username: string; firstName: string; lastName: string; isStaff: boolean; isAuditor: boolean },
    readonly at: Date,
  ) {}
}

/**
 * A staff member creates an account (a customer, staff or an auditor) from the console. Nobody
 * but its owner ever knows its password: it starts with an unguessable one nobody is told, and
 * the owner is mailed a link to choose their own. Answers the new user's id once the users
 * read model shows them.
 */
@CommandHandler(CreateUser)
export class CreateUserHandler implements ICommandHandler<CreateUser, string> {
  constructor(
    private readonly identity: IdentityContext,
    private readonly commands: CommandBus,
  ) {}

  async execute({ account, at }: CreateUser): Promise<string> {
    const { email, username, firstName, lastName, isStaff, isAuditor } = account;
    const passwordHash = await hashPassword(randomBytes(32).toString('base64url'));
    const userId = await this.commands.execute<RegisterAccount, string>(
      new RegisterAccount({ email, username, passwordHash, isStaff, isAuditor, at }),
    );
    if (firstName || lastName) await this.identity.users.execute(userId, { type: 'UpdateProfile', at, firstName, lastName });
    // The invitation is the account's last event: once the read model has it, it has them all.
    const position = await this.commands.execute<SendPasswordLink, number>(new SendPasswordLink(userId, email, 'invitation', at));
    await this.identity.directory.caughtUpTo(position);
    return userId;
  }
}
