import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { AuthResponse } from '@meshwork/contracts';
import { ruleBroken } from '../../platform/domain/errors';
import { accountDeactivated } from '../domain/user.errors';
import { dummyHash, verifyPassword } from '../infrastructure/password-hasher';
import { actAs } from './acting-person';
import { IdentityContext } from './identity-context';
import { type OpenedSession, OpenSession } from './open-session.handler';
import { RecordDeviceSignIn, WEB_BROWSER } from './record-device-sign-in.command';

export class Login {
  constructor(
    readonly email: string,
    readonly password: string,
    readonly deviceFingerprint: string,
    readonly at: Date,
  ) {}
}

export const badCredentials = () => ruleBroken('Invalid email or password.');

/**
 * Signs in. An unknown email, a deleted account and a wrong password all get the same
 * answer after the same work (a hash is always verified), so nobody can tell which.
 * A desktop (any fingerprint but the browser's) registers or refreshes its device, and its
 * session becomes the device's: revoking the device ends it.
 */
@CommandHandler(Login)
export class LoginHandler implements ICommandHandler<Login, AuthResponse> {
  constructor(
    private readonly identity: IdentityContext,
    private readonly commands: CommandBus,
  ) {}

  async execute({ email, password, deviceFingerprint, at }: Login): Promise<AuthResponse> {
    const userId = await this.identity.userIdByEmail(email);
    const { state } = userId ? await this.identity.users.load(userId) : { state: null };
    const known = state && (state.status === 'active' || state.status === 'deactivated') ? state : null;
    const matches = await verifyPassword(password, known?.passwordHash ?? (await dummyHash()));
    if (!known || !matches) throw badCredentials();
    if (known.status === 'deactivated') throw accountDeactivated();
    actAs({ userId: known.userId, isStaff: known.isStaff });

    const deviceId =
      deviceFingerprint === WEB_BROWSER
        ? null
        : await this.commands.execute<RecordDeviceSignIn, string>(new RecordDeviceSignIn(known.userId, deviceFingerprint, at));
    const { tokens, position } = await this.commands.execute<OpenSession, OpenedSession>(
      new OpenSession({ userId: known.userId, email: known.email, isStaff: known.isStaff }, deviceFingerprint, at, deviceId),
    );
    // Signing in changes nothing the answer shows, so the read model need not catch up
    // first; only an account registered a moment ago may not be in it yet.
    const { directory } = this.identity;
    const user = (await directory.findById(known.userId)) ?? (await directory.caughtUpTo(position), await directory.findById(known.userId));
    return { tokens, user: user! };
  }
}
