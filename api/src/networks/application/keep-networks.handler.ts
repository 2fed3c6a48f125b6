import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { NetworkContext } from './network-context';

export class KeepNetworks {
  constructor(
    readonly userId: string,
    readonly networkIds: readonly string[],
    readonly at: Date,
  ) {}
}

/** The customer chooses which networks run when their plan allows fewer than they have. */
@CommandHandler(KeepNetworks)
export class KeepNetworksHandler implements ICommandHandler<KeepNetworks, void> {
  constructor(private readonly context: NetworkContext) {}

  async execute({ userId, networkIds, at }: KeepNetworks): Promise<void> {
    const limits = await this.context.limitsOf(userId);
    const { position } = await this.context.networks.execute(userId, { type: 'KeepNetworks', at, networkIds, limits });
    await this.context.caughtUp(position);
  }
}
