import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { RevokedBy } from '../../domain/device.decider';
import { DevicesContext } from './devices-context';

export class RevokeDevice {
  constructor(
    readonly deviceId: string,
    /** The owner (checked: someone else's device is not found), or staff (any device). */
    readonly by: { kind: 'user'; userId: string } | { kind: 'staff' },
    readonly reason: string,
    readonly at: Date,
  ) {}
}

/**
 * Revokes a device: DeviceRevoked on its stream (with the actor in the metadata; issue 12
 * §3 pushes "revoked" to the device from this event), its (user, fingerprint) key released
 * so approving the machine again registers a new device, and every session of the device
 * ended at once on every api instance. Revoking twice changes nothing more.
 */
@CommandHandler(RevokeDevice)
export class RevokeDeviceHandler implements ICommandHandler<RevokeDevice, void> {
  constructor(private readonly context: DevicesContext) {}

  async execute({ deviceId, by, reason, at }: RevokeDevice): Promise<void> {
    const kind: RevokedBy = by.kind;
    const userId = by.kind === 'user' ? by.userId : null;
    const { position, state } = await this.context.devices.execute(
      deviceId,
      { type: 'RevokeDevice', at, by: kind, userId, reason },
      {
        unique: (device) =>
          device.status === 'active' ? { release: [this.context.deviceKey(device.userId, device.fingerprintHash)] } : {},
      },
    );
    // Also when already revoked: a session opened in a race with the first revocation ends too.
    await this.context.sessions.end(deviceId, 'device-revoked', at);
    if (state.status !== 'none') await this.context.caughtUp(position);
  }
}
