import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { conflict, notFound, ruleBroken } from '../../../platform/domain/errors';
import { DevicesContext } from '../devices/devices-context';
import { NetworkContext } from '../network-context';

export class AssignHost {
  constructor(
    readonly userId: string,
    readonly networkId: string,
    readonly deviceId: string,
    readonly at: Date,
    /** The host device's LAN certificate (SHA-256 hex), sent by that device itself; null when not sent. */
    readonly certificateSha256: string | null = null,
    /** The device whose session asks, or null for the owner on the site. */
    readonly byDevice: string | null = null,
  ) {}
}

/**
 * The owner makes one of their active devices the network's host. The device is read from
 * its own stream (not the read model), so one approved or revoked a moment ago is seen as it is.
 */
@CommandHandler(AssignHost)
export class AssignHostHandler implements ICommandHandler<AssignHost, void> {
  constructor(
    private readonly context: NetworkContext,
    private readonly devices: DevicesContext,
  ) {}

  async execute({ userId, networkId, deviceId, at, certificateSha256, byDevice }: AssignHost): Promise<void> {
    // The api vouches for a certificate to every device of the account: only the device that holds its key may name it.
    if (certificateSha256 !== null && byDevice !== deviceId)
      throw ruleBroken('Only the host device itself can register its certificate, from its own session.', 'certificate_sha256');
    const { state: device } = await this.devices.devices.load(deviceId);
    // Someone else's device is not found, never forbidden: no probing of ids.
    if (device.status === 'none' || device.userId !== userId) throw notFound('Device not found.');
    if (device.status === 'revoked') throw conflict('This device has been revoked. Sign it in again to make it a host.', 'device_id');
    const { position } = await this.context.networks.execute(userId, { type: 'AssignHost', at, networkId, deviceId, certificateSha256 });
    await this.context.caughtUp(position);
  }
}
