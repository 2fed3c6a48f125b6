import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { NetworkContext } from './network-context';

export class DeleteNetwork {
  constructor(
    readonly userId: string,
    readonly networkId: string,
    readonly at: Date,
  ) {}
}

/** The customer deletes one of their networks: the only way a network ends (plans never delete). */
@CommandHandler(DeleteNetwork)
export class DeleteNetworkHandler implements ICommandHandler<DeleteNetwork, void> {
  constructor(private readonly context: NetworkContext) {}

  async execute({ userId, networkId, at }: DeleteNetwork): Promise<void> {
    const { position } = await this.context.networks.execute(userId, { type: 'DeleteNetwork', at, networkId });
    await this.context.caughtUp(position);
  }
}
