import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DevicesContext } from './devices-context';

export class RenameDevice {
  constructor(
    readonly userId: string,
    readonly deviceId: string,
    readonly name: string,
    readonly at: Date,
  ) {}
}

/** The owner renames a device; the devices list shows the new name when this answers. */
@CommandHandler(RenameDevice)
export class RenameDeviceHandler implements ICommandHandler<RenameDevice, void> {
  constructor(private readonly context: DevicesContext) {}

  async execute({ userId, deviceId, name, at }: RenameDevice): Promise<void> {
    const { position } = await this.context.devices.execute(deviceId, { type: 'RenameDevice', at, userId, name });
    await this.context.caughtUp(position);
  }
}
