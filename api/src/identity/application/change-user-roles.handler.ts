import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { IdentityContext } from './identity-context';

export class ChangeUserRoles {
  constructor(
    readonly userId: string,
    readonly roles: { isStaff: boolean; isAuditor: boolean },
    readonly at: Date,
  ) {}
}

/** Staff make a user staff, an auditor or neither. Takes effect on the user's very next request. */
@CommandHandler(ChangeUserRoles)
export class ChangeUserRolesHandler implements ICommandHandler<ChangeUserRoles, void> {
  constructor(private readonly identity: IdentityContext) {}

  async execute({ userId, roles, at }: ChangeUserRoles): Promise<void> {
    const { position } = await this.identity.users.execute(userId, { type: 'ChangeRoles', at, ...roles });
    await this.identity.directory.caughtUpTo(position);
    // The projection announces the change to every process; this one must not wait for it.
    this.identity.signedIn.forget(userId);
  }
}
