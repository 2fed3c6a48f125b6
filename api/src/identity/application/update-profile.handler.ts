import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { User } from '@meshwork/contracts';
import { ruleBroken } from '../../platform/domain/errors';
import { UniqueValueTakenError } from '../../platform/event-store/event-store.errors';
import type { UniqueValue } from '../../platform/event-store/event-store.port';
import { IdentityContext } from './identity-context';

export class UpdateProfile {
  constructor(
    readonly userId: string,
    readonly changes: { email?: string; username?: string; first_name?: string; last_name?: string },
    readonly at: Date,
    /** Staff may correct a deactivated account's names; its owner, signed out, cannot reach it. */
    readonly byStaff = false,
  ) {}
}

/** Changes profile fields; a new email or username is claimed and the old one released in the same append. */
@CommandHandler(UpdateProfile)
export class UpdateProfileHandler implements ICommandHandler<UpdateProfile, User> {
  constructor(private readonly identity: IdentityContext) {}

  async execute({ userId, changes, at, byStaff }: UpdateProfile): Promise<User> {
    const { users, directory } = this.identity;
    try {
      const { position } = await users.execute(
        userId,
        {
          type: 'UpdateProfile',
          at,
          byStaff,
          email: changes.email,
          username: changes.username,
          firstName: changes.first_name,
          lastName: changes.last_name,
        },
        {
          unique: (state, events) => {
            const claim: UniqueValue[] = [];
            const release: UniqueValue[] = [];
            const update = events[0]?.type === 'ProfileUpdated' ? events[0].data : {};
            if (state.status !== 'active' && state.status !== 'deactivated') return {};
            if (update.email) {
              claim.push(this.identity.emailKey(update.email));
              release.push(this.identity.emailKey(state.email));
            }
            if (update.username) {
              claim.push(this.identity.usernameKey(update.username));
              release.push(this.identity.usernameKey(state.username));
            }
            return { claim, release };
          },
        },
      );
      await directory.caughtUpTo(position);
      // The projection announces the change to every process; this one must not wait for it.
      this.identity.signedIn.forget(userId);
    } catch (error) {
      if (error instanceof UniqueValueTakenError) {
        throw error.scope === 'user-email'
          ? ruleBroken('A user with this email already exists.', 'email')
          : ruleBroken('A user with that username already exists.', 'username');
      }
      throw error;
    }
    return (await directory.findById(userId))!;
  }
}
