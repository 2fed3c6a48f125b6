import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { NetworkContext } from './network-context';

export class RenameNetwork {
  constructor(
    readonly userId: string,
    readonly networkId: string,
    readonly name: string,
    readonly at: Date,
  ) {}
}

/** Renames one of the customer's networks (suspended ones too). */
@CommandHandler(RenameNetwork)
export class RenameNetworkHandler implements ICommandHandler<RenameNetwork, void> {
  constructor(private readonly context: NetworkContext) {}

  async execute({ userId, networkId, name, at }: RenameNetwork): Promise<void> {
    const { position } = await this.context.networks.execute(userId, { type: 'RenameNetwork', at, networkId, name });
    await this.context.caughtUp(position);
  }
}
