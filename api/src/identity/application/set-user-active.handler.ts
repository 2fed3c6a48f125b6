import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { IdentityContext } from './identity-context';

export class SetUserActive {
  constructor(
    readonly userId: string,
    readonly active: boolean,
    readonly at: Date,
  ) {}
}

/** Staff deactivate or reactivate an account; deactivation ends every session at once. Returns once the users read model shows it. */
@CommandHandler(SetUserActive)
export class SetUserActiveHandler implements ICommandHandler<SetUserActive, number> {
  constructor(private readonly identity: IdentityContext) {}

  async execute({ userId, active, at }: SetUserActive): Promise<number> {
    const { position } = await this.identity.users.execute(userId, { type: active ? 'Reactivate' : 'Deactivate', at });
    if (!active) await this.identity.sessions.revokeAll(userId, 'deactivated', at);
    await this.identity.directory.caughtUpTo(position);
    return position;
  }
}
