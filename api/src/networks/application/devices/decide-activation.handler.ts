import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { activationErrors } from '../../domain/device-code.decider';
import { DeviceActivations } from './device-activations';
import { DEVICE_STREAM, DevicesContext } from './devices-context';

export class DecideActivation {
  constructor(
    readonly userId: string,
    readonly userCode: string,
    /** Approve (naming the device; its own suggestion when absent) or deny. */
    readonly approve: boolean,
    readonly name: string | null,
    readonly at: Date,
  ) {}
}

/**
 * The person's answer on /activate. Approving binds the code to the device of (user,
 * fingerprint), registering it the first time (the key claimed in the append) or naming it
 * again; the host's next poll receives its tokens. A code is decided once.
 */
@CommandHandler(DecideActivation)
export class DecideActivationHandler implements ICommandHandler<DecideActivation, { approved: boolean; deviceId: string | null }> {
  constructor(
    private readonly context: DevicesContext,
    private readonly activations: DeviceActivations,
  ) {}

  async execute({ userId, userCode, approve, name, at }: DecideActivation): Promise<{ approved: boolean; deviceId: string | null }> {
    const { codes, devices } = this.context;
    const codeId = await this.activations.find(userId, userCode, at);
    if (!approve) {
      await codes.execute(codeId, { type: 'DenyDeviceCode', at, userId });
      return { approved: false, deviceId: null };
    }
    const { state } = await codes.load(codeId);
    if (state.status === 'none') throw activationErrors.used();
    const { fingerprintHash, deviceName, platform, appVersion } = state.request;
    const key = this.context.deviceKey(userId, fingerprintHash);
    const deviceId = (await this.context.idOwning(key, DEVICE_STREAM)) ?? randomUUID();

    // The code first: an expired or used code must not register or rename anything.
    await codes.execute(codeId, { type: 'ApproveDeviceCode', at, userId, deviceId });
    const command = { type: 'SignInDevice' as const, at, deviceId, userId, fingerprintHash, via: 'device-grant' as const };
    const { position } = await devices.execute(
      deviceId,
      { ...command, name: name ?? deviceName, platform, appVersion },
      { unique: (device) => (device.status === 'none' ? { claim: [key] } : {}) },
    );
    await this.context.caughtUp(position); // the site lists the devices next
    return { approved: true, deviceId };
  }
}
