import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DevicesContext } from '../devices/devices-context';
import { NetworkContext } from '../network-context';

export class ReleaseDevice {
  constructor(
    readonly deviceId: string,
    readonly at: Date,
  ) {}
}

/**
 * A revoked device gives up its places in its owner's networks: it stops hosting
 * (HostReleased) and stops being a client (ClientDisconnected), cause device_revoked.
 * Idempotent, so the follower that sends it on DeviceRevoked may send it again.
 * Returns the last position written (0 when nothing was).
 */
@CommandHandler(ReleaseDevice)
export class ReleaseDeviceHandler implements ICommandHandler<ReleaseDevice, number> {
  constructor(
    private readonly context: NetworkContext,
    private readonly devices: DevicesContext,
  ) {}

  async execute({ deviceId, at }: ReleaseDevice): Promise<number> {
    const { state: device } = await this.devices.devices.load(deviceId);
    if (device.status === 'none') return 0;
    const { position } = await this.context.networks.execute(device.userId, { type: 'ReleaseDevice', at, deviceId });
    return position;
  }
}
