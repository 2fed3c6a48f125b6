import { randomBytes } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { logger } from '../../platform/logging/logger';
import { IdentityContext } from './identity-context';
import { hashSecret } from './reset-token';

/** A forgotten password's link lasts an hour; a new account's invitation gives its owner three days. */
const LINK_TTL_MS = { reset: 60 * 60 * 1000, invitation: 72 * 60 * 60 * 1000 } as const;

const MAILS = {
  reset: (link: string) => ({
    subject: 'Reset your Meshwork password',
    text: `Someone asked to reset the password of your Meshwork account.\n\nTo choose a new password, open this link within one hour:\n${link}\n\nIf it was not you, ignore this email; your password stays as it is.`,
  }),
  invitation: (link: string) => ({
    subject: 'Your Meshwork account is ready',
    text: `A Meshwork administrator has created an account for you.\n\nTo choose your password and sign in, open this link within three days:\n${link}\n\nIf the link has expired, use "Forgot password" on the sign-in page.`,
  }),
};

export class SendPasswordLink {
  constructor(
    readonly userId: string,
    readonly email: string,
    readonly purpose: keyof typeof LINK_TTL_MS,
    readonly at: Date,
  ) {}
}

/**
 * Records a password reset for this active user and mails them the link to choose a password:
 * a forgotten password's reset, or the invitation of an account staff made. The token is
 * `<user id>.<secret>`; only the secret's hash is kept (in the event), it expires and works
 * once. The mail goes out in the background so the caller's answer does not wait for SMTP.
 * Answers the event's log position.
 */
@CommandHandler(SendPasswordLink)
export class SendPasswordLinkHandler implements ICommandHandler<SendPasswordLink, number> {
  constructor(private readonly identity: IdentityContext) {}

  async execute({ userId, email, purpose, at }: SendPasswordLink): Promise<number> {
    const identity = this.identity;
    const secret = randomBytes(32).toString('base64url');
    const { position } = await identity.users.execute(userId, {
      type: 'RequestPasswordReset',
      at,
      tokenHash: hashSecret(secret),
      expiresAt: new Date(at.getTime() + LINK_TTL_MS[purpose]),
    });
    const link = `${identity.config.publicUrl}/reset-password?token=${encodeURIComponent(`${userId}.${secret}`)}`;
    if (!identity.config.SMTP_URL) logger.info({ link, purpose }, 'password link (embedded mode: mail is in the outbox)');
    setImmediate(() => {
      identity.mailer
        .send({ to: email, ...MAILS[purpose](link) })
        .catch((error: unknown) => logger.error({ err: error, purpose }, 'could not send the password link email'));
    });
    return position;
  }
}
