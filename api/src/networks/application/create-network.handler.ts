import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { NetworkContext } from './network-context';

export class CreateNetwork {
  constructor(
    readonly userId: string,
    readonly name: string,
    /** The model's name or catalog id, as the customer sent it. */
    readonly model: string,
    readonly at: Date,
  ) {}
}

/**
 * Creates a network under the plan's limits (how many networks, which models). Returns its
 * id once the read model shows it.
 */
@CommandHandler(CreateNetwork)
export class CreateNetworkHandler implements ICommandHandler<CreateNetwork, string> {
  constructor(private readonly context: NetworkContext) {}

  async execute({ userId, name, model, at }: CreateNetwork): Promise<string> {
    const [limits, resolved] = await Promise.all([this.context.limitsOf(userId), this.context.model(model)]);
    const networkId = randomUUID();
    const { position } = await this.context.networks.execute(userId, {
      type: 'CreateNetwork',
      at,
      networkId,
      name,
      model: resolved,
      limits,
    });
    await this.context.caughtUp(position);
    return networkId;
  }
}
