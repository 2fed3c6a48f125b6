import { randomBytes, randomUUID } from 'node:crypto';
import type { UserEvent } from '../../identity/domain/user.events';
import { PersonalDataVault } from '../../identity/infrastructure/personal-data-vault';
import { UserEventCodec } from '../../identity/infrastructure/user-event-codec';
import { anEvent } from '@meshwork/testkit/api/an-event';
import { projectionScenario, type StreamEvents } from '../../testing/projection-scenario';
import { billingProjection } from './billing.projection';

const MASTER_KEY = randomBytes(32);

/** Billing's own copy of its payers' emails and names, from identity's (encrypted) user events. */
describe('billing read model: payers (events in, rows out)', () => {
  const billing = projectionScenario((pool) => billingProjection(new UserEventCodec(new PersonalDataVault(pool, MASTER_KEY))));
  const vault = () => new PersonalDataVault(billing.pool, MASTER_KEY);
  const payers = () => `SELECT user_id, email, username, first_name, last_name FROM ${billing.schema}.payers ORDER BY username`;

  /** A user's events as identity stores them: personal fields encrypted under the user's key. */
  async function user(id: string, ...events: UserEvent[]): Promise<StreamEvents> {
    await vault().createKey(id);
    const codec = new UserEventCodec(vault());
    const stored = await Promise.all(events.map((e) => codec.encode(id, e, anEvent().metadata)));
    return { streamId: `user-${id}`, events: stored.map((s, i) => anEvent({ type: events[i]!.type, ...s })) };
  }
  const registered = (id: string, name: string): UserEvent => ({
    type: 'UserRegistered',
    data: { userId: id, email: `${name}@example.com`, username: name, passwordHash: 'x', isStaff: false },
  });

  it('registration: the payer’s email and username, decrypted (the log holds them encrypted)', async () => {
    const ada = randomUUID();
    const registration = await user(ada, registered(ada, 'ada'));
    expect(String((registration.events[0]!.data as { email: string }).email)).toMatch(/^enc:v1:/);
    const then = await billing.given().when(registration);
    expect(await then.rows(payers())).toEqual([{ user_id: ada, email: 'ada@example.com', username: 'ada', first_name: '', last_name: '' }]);
  });

  it('profile update: the fields given change, the others stay', async () => {
    const ada = randomUUID();
    const then = await billing
      .given(await user(ada, registered(ada, 'ada')))
      .when(await user(ada, { type: 'ProfileUpdated', data: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@math.org' } }));
    expect(await then.rows(payers())).toEqual([
      { user_id: ada, email: 'ada@math.org', username: 'ada', first_name: 'Ada', last_name: 'Lovelace' },
    ]);
  });

  it('account deletion: the payer’s row goes with their personal data, the others stay', async () => {
    const ada = randomUUID();
    const bob = randomUUID();
    const then = await billing
      .given(await user(ada, registered(ada, 'ada')), await user(bob, registered(bob, 'bob')))
      .when(await user(ada, { type: 'UserDeleted', data: {} }));
    expect(await then.rows(payers())).toEqual([{ user_id: bob, email: 'bob@example.com', username: 'bob', first_name: '', last_name: '' }]);
  });

  it('a rebuild after the key is destroyed reads nothing personal and still ends with no row', async () => {
    const ada = randomUUID();
    const history = await user(ada, registered(ada, 'ada'), { type: 'UserDeleted', data: {} });
    await vault().destroyKey(ada);
    const then = await billing.given().when(history);
    expect(await then.rows(payers())).toEqual([]);
  });
});
