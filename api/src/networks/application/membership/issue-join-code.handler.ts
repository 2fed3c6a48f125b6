import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { formatJoinCode, JOIN_CODE_LIFETIME_SECONDS, type JoinCode } from '@meshwork/contracts';
import { NetworkContext } from '../network-context';
import { joinCodeHash, newJoinCode } from './join-code';

export class IssueJoinCode {
  constructor(
    readonly userId: string,
    /** The device session asking (it must be the host), or null for the owner on the site. */
    readonly byDevice: string | null,
    readonly networkId: string,
    readonly at: Date,
  ) {}
}

/**
 * A fresh join code for the network, replacing the one before. The log keeps only its hash;
 * the code itself is answered once, to be shown by the host or the site.
 */
@CommandHandler(IssueJoinCode)
export class IssueJoinCodeHandler implements ICommandHandler<IssueJoinCode, JoinCode> {
  constructor(private readonly context: NetworkContext) {}

  async execute({ userId, byDevice, networkId, at }: IssueJoinCode): Promise<JoinCode> {
    const code = newJoinCode();
    const expiresAt = new Date(at.getTime() + JOIN_CODE_LIFETIME_SECONDS * 1000);
    await this.context.networks.execute(userId, {
      type: 'IssueJoinCode',
      at,
      networkId,
      codeHash: joinCodeHash(code),
      expiresAt,
      byDevice,
    });
    return { code: formatJoinCode(code), expires_at: expiresAt.toISOString() };
  }
}
