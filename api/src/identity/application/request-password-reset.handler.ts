import { randomBytes } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { logger } from '../../platform/logging/logger';
import { IdentityContext } from './identity-context';
import { hashSecret } from './reset-token';

const RESET_TTL_MS = 60 * 60 * 1000;

export class RequestPasswordReset {
  constructor(
    readonly email: string,
    readonly at: Date,
  ) {}
}

/**
 * Sends a reset link when the email belongs to an active account, and answers the same way
 * whether or not it does. The token is `<user id>.<secret>`; only the secret's hash is kept
 * (in the event), it expires in an hour and works once. The mail goes out in the background
 * so the answer takes as long either way.
 */
@CommandHandler(RequestPasswordReset)
export class RequestPasswordResetHandler implements ICommandHandler<RequestPasswordReset, void> {
  constructor(private readonly identity: IdentityContext) {}

  async execute({ email, at }: RequestPasswordReset): Promise<void> {
    const { users, mailer, config } = this.identity;
    const userId = await this.identity.userIdByEmail(email);
    const secret = randomBytes(32).toString('base64url');
    if (!userId) return;
    const { state } = await users.load(userId);
    if (state.status !== 'active') return;
    await users.execute(userId, {
      type: 'RequestPasswordReset',
      at,
      tokenHash: hashSecret(secret),
      expiresAt: new Date(at.getTime() + RESET_TTL_MS),
    });
    const link = `${config.publicUrl}/reset-password?token=${encodeURIComponent(`${userId}.${secret}`)}`;
    if (!config.SMTP_URL) logger.info({ link }, 'password reset link (embedded mode: mail is in the outbox)');
    setImmediate(() => {
      mailer
        .send({
          to: state.email,
          subject: 'Reset your Meshwork password',
          text: `Someone asked to reset the password of your Meshwork account.\n\nTo choose a new password, open this link within one hour:\n${link}\n\nIf it was not you, ignore this email; your password stays as it is.`,
        })
        .catch((error: unknown) => logger.error({ err: error }, 'could not send the password reset email'));
    });
  }
}
