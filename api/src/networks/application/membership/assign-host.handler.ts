import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { conflict, notFound } from '../../../platform/domain/errors';
import { DevicesContext } from '../devices/devices-context';
import { NetworkContext } from '../network-context';

export class AssignHost {
  constructor(
    readonly userId: string,
    readonly networkId: string,
    readonly deviceId: string,
    readonly at: Date,
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

  async execute({ userId, networkId, deviceId, at }: AssignHost): Promise<void> {
    const { state: device } = await this.devices.devices.load(deviceId);
    // Someone else's device is not found, never forbidden: no probing of ids.
    if (device.status === 'none' || device.userId !== userId) throw notFound('Device not found.');
    if (device.status === 'revoked') throw conflict('This device has been revoked. Sign it in again to make it a host.', 'device_id');
    const { position } = await this.context.networks.execute(userId, { type: 'AssignHost', at, networkId, deviceId });
    await this.context.caughtUp(position);
  }
}
