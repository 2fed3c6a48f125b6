import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { NetworkContext } from '../network-context';

export class RemoveClient {
  constructor(
    readonly userId: string,
    readonly networkId: string,
    readonly deviceId: string,
    readonly at: Date,
  ) {}
}

/** The owner removes a client device from a network (removing it twice changes nothing). */
@CommandHandler(RemoveClient)
export class RemoveClientHandler implements ICommandHandler<RemoveClient, void> {
  constructor(private readonly context: NetworkContext) {}

  async execute({ userId, networkId, deviceId, at }: RemoveClient): Promise<void> {
    const { position } = await this.context.networks.execute(userId, { type: 'RemoveClient', at, networkId, deviceId });
    await this.context.caughtUp(position);
  }
}
