import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { NetworkContext } from '../network-context';

export class ReleaseHost {
  constructor(
    readonly userId: string,
    readonly networkId: string,
    readonly at: Date,
  ) {}
}

/** The owner releases the network's host: clients stay, the join code ends, a new host may be assigned. */
@CommandHandler(ReleaseHost)
export class ReleaseHostHandler implements ICommandHandler<ReleaseHost, void> {
  constructor(private readonly context: NetworkContext) {}

  async execute({ userId, networkId, at }: ReleaseHost): Promise<void> {
    const { position } = await this.context.networks.execute(userId, { type: 'ReleaseHost', at, networkId });
    await this.context.caughtUp(position);
  }
}
