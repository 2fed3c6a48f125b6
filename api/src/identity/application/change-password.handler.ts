import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ruleBroken } from '../../platform/domain/errors';
import { hashPassword, verifyPassword } from '../infrastructure/password-hasher';
import { IdentityContext } from './identity-context';

export class ChangePassword {
  constructor(
    readonly userId: string,
    readonly sessionId: string,
    readonly oldPassword: string,
    readonly newPassword: string,
    readonly at: Date,
  ) {}
}

/** Changes the password after checking the current one; every other session is signed out. */
@CommandHandler(ChangePassword)
export class ChangePasswordHandler implements ICommandHandler<ChangePassword, void> {
  constructor(private readonly identity: IdentityContext) {}

  async execute({ userId, sessionId, oldPassword, newPassword, at }: ChangePassword): Promise<void> {
    const { users, sessions } = this.identity;
    const { state } = await users.load(userId);
    if (state.status !== 'active' || !(await verifyPassword(oldPassword, state.passwordHash))) {
      throw ruleBroken('Current password is incorrect.', 'old_password');
    }
    await users.execute(userId, { type: 'ChangePassword', at, passwordHash: await hashPassword(newPassword), keptSessionId: sessionId });
    await sessions.revokeAll(userId, 'password-changed', at, sessionId);
  }
}
