import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '../../platform/domain/errors';
import { resetTokenInvalid } from '../domain/user.errors';
import { hashPassword } from '../infrastructure/password-hasher';
import { actAsAccount } from './acting-person';
import { IdentityContext } from './identity-context';
import { hashSecret } from './reset-token';
import { isUuid } from '@meshwork/contracts';

export class ConfirmPasswordReset {
  constructor(
    readonly token: string,
    readonly password: string,
    readonly at: Date,
  ) {}
}

/** Sets the new password with a valid reset token, and signs every session out. */
@CommandHandler(ConfirmPasswordReset)
export class ConfirmPasswordResetHandler implements ICommandHandler<ConfirmPasswordReset, void> {
  constructor(private readonly identity: IdentityContext) {}

  async execute({ token, password, at }: ConfirmPasswordReset): Promise<void> {
    const dot = token.lastIndexOf('.');
    const userId = token.slice(0, dot);
    const secret = token.slice(dot + 1);
    if (dot <= 0 || !secret || !isUuid(userId)) throw resetTokenInvalid();
    // The link's holder is the account's person: a wrong token appends nothing for anyone.
    await actAsAccount(this.identity, userId);
    try {
      await this.identity.users.execute(userId, {
        type: 'CompletePasswordReset',
        at,
        tokenHash: hashSecret(secret),
        passwordHash: await hashPassword(password),
      });
    } catch (error) {
      // An unknown or deleted user looks the same as a bad token.
      if (error instanceof DomainError && error.kind === 'not_found') throw resetTokenInvalid();
      throw error;
    }
    await this.identity.sessions.revokeAll(userId, 'password-reset', at);
  }
}
