import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { forbidden } from '../../../platform/domain/errors';
import { NetworkContext } from '../network-context';

export class LeaveNetwork {
  constructor(
    readonly userId: string,
    /** The device session's device; null for a web session (the site removes clients instead). */
    readonly deviceId: string | null,
    readonly networkId: string,
    readonly at: Date,
  ) {}
}

/** The calling device leaves a network it is a client of (leaving twice changes nothing). */
@CommandHandler(LeaveNetwork)
export class LeaveNetworkHandler implements ICommandHandler<LeaveNetwork, void> {
  constructor(private readonly context: NetworkContext) {}

  async execute({ userId, deviceId, networkId, at }: LeaveNetwork): Promise<void> {
    if (!deviceId) throw forbidden('Leave from the Meshwork app on the device that leaves, or remove the client.');
    const { position } = await this.context.networks.execute(userId, { type: 'LeaveNetwork', at, networkId, deviceId });
    await this.context.caughtUp(position);
  }
}
