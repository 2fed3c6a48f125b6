import { randomBytes, randomUUID } from 'node:crypto';
import type { Database } from '../../platform/database/database';
import { anEvent } from '@meshwork/testkit/api/an-event';
import { projectionScenario, type StreamEvents } from '../../testing/projection-scenario';
import type { UserEvent } from '../domain/user.events';
import { PersonalDataVault } from '../infrastructure/personal-data-vault';
import { UserEventCodec } from '../infrastructure/user-event-codec';
import { usersProjection } from '../projections/users.projection';
import { UserDirectory } from './user-directory';

const MASTER_KEY = randomBytes(32);

/** namesOf: how other contexts name users by id (the catalog's uploaders) without reading identity's tables. */
describe('UserDirectory.namesOf', () => {
  const users = projectionScenario((pool) => usersProjection(new PersonalDataVault(pool, MASTER_KEY)));
  // namesOf reads no plan: the plan part is never asked for.
  const directory = () => new UserDirectory({ pool: users.pool } as Database, { of: () => Promise.reject(new Error('no plans here')) });

  async function user(id: string, ...events: UserEvent[]): Promise<StreamEvents> {
    const vault = new PersonalDataVault(users.pool, MASTER_KEY);
    await vault.createKey(id);
    const stored = await Promise.all(events.map((e) => new UserEventCodec(vault).encode(id, e, anEvent().metadata)));
    return { streamId: `user-${id}`, events: stored.map((s, i) => anEvent({ type: events[i]!.type, ...s })) };
  }
  const registered = (id: string, name: string): UserEvent => ({
    type: 'UserRegistered',
    data: { userId: id, email: `${name}@example.com`, username: name, passwordHash: 'x', isStaff: true },
  });

  it('names each user still there once, by id; a deleted or unknown user is absent', async () => {
    const [ada, bob, cy] = [randomUUID(), randomUUID(), randomUUID()];
    await users
      .given(await user(ada, registered(ada, 'ada')), await user(bob, registered(bob, 'bob')), await user(cy, registered(cy, 'cy')))
      .when(await user(cy, { type: 'UserDeleted', data: {} }));
    const names = await directory().namesOf([ada, bob, ada, cy, randomUUID()]);
    expect(Object.fromEntries(names)).toEqual({
      [ada]: { username: 'ada', email: 'ada@example.com' },
      [bob]: { username: 'bob', email: 'bob@example.com' },
    });
    expect((await directory().namesOf([])).size).toBe(0);
  });
});
