import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { RecordDeviceSignIn } from '../../../identity';
import { DEVICE_STREAM, DevicesContext } from './devices-context';

/**
 * A desktop signed in with its password (`POST /login/` with its fingerprint): registers
 * the device of (user, fingerprint) the first time, or notes it seen (at most hourly).
 * Answers the device id, so the sign-in's session becomes the device's.
 */
@CommandHandler(RecordDeviceSignIn)
export class RecordDeviceSignInHandler implements ICommandHandler<RecordDeviceSignIn, string> {
  constructor(private readonly context: DevicesContext) {}

  async execute({ userId, hardwareFingerprint, at }: RecordDeviceSignIn): Promise<string> {
    const fingerprintHash = this.context.fingerprintHash(hardwareFingerprint);
    const key = this.context.deviceKey(userId, fingerprintHash);
    const deviceId = (await this.context.idOwning(key, DEVICE_STREAM)) ?? randomUUID();
    const named = { name: null, platform: null, appVersion: null };
    await this.context.devices.execute(
      deviceId,
      { type: 'SignInDevice', at, deviceId, userId, fingerprintHash, via: 'login', ...named },
      { unique: (device) => (device.status === 'none' ? { claim: [key] } : {}) },
    );
    return deviceId;
  }
}
