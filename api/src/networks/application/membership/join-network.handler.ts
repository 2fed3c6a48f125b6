import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { normalizeJoinCode } from '@meshwork/contracts';
import { forbidden, ruleBroken } from '../../../platform/domain/errors';
import { DeviceDirectory } from '../devices/device-directory';
import { NetworkContext } from '../network-context';
import { JoinAttempts } from './join-attempts';
import { joinCodeHash } from './join-code';

export class JoinNetwork {
  constructor(
    readonly userId: string,
    /** The device session's device; null for a web session, which cannot join. */
    readonly deviceId: string | null,
    /** The code as typed (validated by JoinNetworkRequest). */
    readonly code: string,
    readonly at: Date,
  ) {}
}

/**
 * The calling device joins the network whose host shows the code, among its owner's own
 * networks, under the plan's client cap. Returns the network's id.
 */
@CommandHandler(JoinNetwork)
export class JoinNetworkHandler implements ICommandHandler<JoinNetwork, string> {
  constructor(
    private readonly context: NetworkContext,
    private readonly directory: DeviceDirectory,
    private readonly attempts: JoinAttempts,
  ) {}

  async execute({ userId, deviceId, code, at }: JoinNetwork): Promise<string> {
    if (!deviceId) throw forbidden('Join from the Meshwork app on the device that joins.');
    this.attempts.take(deviceId, at);
    const normalized = normalizeJoinCode(code);
    if (!normalized) throw ruleBroken('This join code is invalid or has expired.', 'code');
    if (!(await this.directory.ownedActiveDevice(userId, deviceId))) throw forbidden('This device is not signed in.');
    const limits = await this.context.limitsOf(userId);
    const codeHash = joinCodeHash(normalized);
    const { state, position } = await this.context.networks.execute(userId, { type: 'JoinClient', at, codeHash, deviceId, limits });
    await this.context.caughtUp(position);
    return state.networks.find((n) => n.joinCode?.codeHash === codeHash)!.networkId;
  }
}
