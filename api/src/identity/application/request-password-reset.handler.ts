import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { IdentityContext } from './identity-context';
import { sendPasswordLink } from './password-link';

export class RequestPasswordReset {
  constructor(
    readonly email: string,
    readonly at: Date,
  ) {}
}

/**
 * Sends a reset link when the email belongs to an active account, and answers the same way
 * whether or not it does (see password-link.ts for the link).
 */
@CommandHandler(RequestPasswordReset)
export class RequestPasswordResetHandler implements ICommandHandler<RequestPasswordReset, void> {
  constructor(private readonly identity: IdentityContext) {}

  async execute({ email, at }: RequestPasswordReset): Promise<void> {
    const userId = await this.identity.userIdByEmail(email);
    if (!userId) return;
    const { state } = await this.identity.users.load(userId);
    if (state.status !== 'active') return;
    await sendPasswordLink(this.identity, { userId, email: state.email, at, purpose: 'reset' });
  }
}
