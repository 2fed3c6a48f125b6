import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { IdentityContext } from './identity-context';
import { SendPasswordLink } from './send-password-link.handler';

export class RequestPasswordReset {
  constructor(
    readonly email: string,
    readonly at: Date,
  ) {}
}

/**
 * Sends a reset link when the email belongs to an active account, and answers the same way
 * whether or not it does (see send-password-link.handler.ts for the link).
 */
@CommandHandler(RequestPasswordReset)
export class RequestPasswordResetHandler implements ICommandHandler<RequestPasswordReset, void> {
  constructor(
    private readonly identity: IdentityContext,
    private readonly commands: CommandBus,
  ) {}

  async execute({ email, at }: RequestPasswordReset): Promise<void> {
    const userId = await this.identity.userIdByEmail(email);
    if (!userId) return;
    const { state } = await this.identity.users.load(userId);
    if (state.status !== 'active') return;
    await this.commands.execute(new SendPasswordLink(userId, state.email, 'reset', at));
  }
}
