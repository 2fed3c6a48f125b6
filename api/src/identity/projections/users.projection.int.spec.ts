import { randomBytes, randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import type { NewEvent } from '@meshwork/contracts';
import { UserPlansReader } from '../../accounts/user-plans.reader';
import { billingProjection } from '../../billing/projections/billing.projection';
import { free, pro } from '../../billing/domain/billing-fixtures';
import type { PlanEvent } from '../../billing/domain/plan.decider';
import type { SubscriptionEvent } from '../../billing/domain/subscription.events';
import type { ModelEvent } from '../../catalog/domain/model.decider';
import { catalogProjection } from '../../catalog/projections/catalog.projection';
import type { Database } from '../../platform/database/database';
import { EVERYONE, IDENTITY_CHANGED_CHANNEL } from '../../platform/database/notifications';
import { anEvent } from '@meshwork/testkit/api/an-event';
import { projectionScenario, type StreamEvents } from '../../testing/projection-scenario';
import { UserDirectory } from '../application/user-directory';
import type { UserEvent } from '../domain/user.events';
import { PersonalDataVault } from '../infrastructure/personal-data-vault';
import { UserEventCodec } from '../infrastructure/user-event-codec';
import { usersProjection } from './users.projection';

const MASTER_KEY = randomBytes(32);
const REGISTERED_AT = new Date('2026-03-04T05:06:07.000Z');

describe('users read model (events in, rows out)', () => {
  // The user object's plan part is billing's and the catalog's: their read models run alongside, as in the api.
  const users = projectionScenario((pool) => usersProjection(new PersonalDataVault(pool, MASTER_KEY)), {
    listen: IDENTITY_CHANGED_CHANNEL,
    alongside: (pool) => [billingProjection(new UserEventCodec(new PersonalDataVault(pool, MASTER_KEY))), catalogProjection],
  });
  const plans = () => new UserPlansReader({ pool: users.pool } as Database);
  const directory = () => new UserDirectory({ pool: users.pool } as Database, plans());
  const row = async (pool: Pool, id: string) => {
    const account = (await pool.query(`SELECT username, email, first_name, last_name, search FROM rm_users.users WHERE id = $1`, [id]))
      .rows[0];
    const { plan_id, max_clients } = (await plans().of([id])).get(id)!;
    return { ...account, plan_id, max_clients };
  };

  /** A user's events as the api stores them: personal fields encrypted under the user's key. */
  async function user(id: string, ...events: UserEvent[]): Promise<StreamEvents> {
    const vault = new PersonalDataVault(users.pool, MASTER_KEY);
    await vault.createKey(id);
    const codec = new UserEventCodec(vault);
    const stored = await Promise.all(events.map((e) => codec.encode(id, e, anEvent().metadata)));
    return { streamId: `user-${id}`, events: stored.map((s, i) => anEvent({ type: events[i]!.type, occurredAt: REGISTERED_AT, ...s })) };
  }
  const registered = (id: string, name: string): UserEvent => ({
    type: 'UserRegistered',
    data: { userId: id, email: `${name}@example.com`, username: name, passwordHash: 'x', isStaff: false },
  });
  const stream = (streamId: string, ...events: { type: string; data: unknown }[]): StreamEvents => ({
    streamId,
    events: events.map((e): NewEvent => anEvent({ type: e.type, data: e.data })),
  });
  const freePlan = (maxClientsPerNetwork = 2) =>
    stream('plan-free', {
      type: 'PlanCreated',
      data: { planId: 'free', terms: { ...free.terms, maxClientsPerNetwork }, isActive: true },
    } satisfies PlanEvent);
  const proPlan = () =>
    stream('plan-pro', { type: 'PlanCreated', data: { planId: 'pro', terms: pro.terms, isActive: true } } satisfies PlanEvent);
  const entitlements = (userId: string, planId: string, maxClientsPerNetwork: number) =>
    stream(`subscription-${userId}`, {
      type: 'EntitlementsChanged',
      data: { planId, maxNetworks: 5, maxClientsPerNetwork, downloadAccess: true, expiresAt: null },
    } satisfies SubscriptionEvent);
  const model = (id: string, ...events: ModelEvent[]) => stream(`model-${id}`, ...events);
  const uploaded = (name: string, allowedPlans: string[]): ModelEvent => ({
    type: 'ModelUploadStarted',
    data: {
      modelId: randomUUID(),
      model: { name, displayName: name, description: '', version: '1', parameters: '1B', architecture: 'llama' },
      allowedPlans,
    },
  });
  const published: ModelEvent = { type: 'ModelPublished', data: { totalSize: 1, partsCount: 1 } };

  it('registration: a row on the free plan with its limit, searchable, announcing no one', async () => {
    const ada = randomUUID();
    const then = await users.given(freePlan(2)).when(await user(ada, registered(ada, 'Ada_L')));
    expect(await then.rows(`SELECT id, is_staff, is_active, created_at, last_login FROM ${users.schema}.users`)).toEqual([
      { id: ada, is_staff: false, is_active: true, created_at: REGISTERED_AT, last_login: null },
    ]);
    expect(await row(users.pool, ada)).toEqual({
      username: 'Ada_L',
      email: 'Ada_L@example.com',
      first_name: '',
      last_name: '',
      search: 'ada_l ada_l@example.com  ',
      plan_id: 'free',
      max_clients: 2,
    });
    expect(then.announced).toEqual([]);
  });

  it('profile update: the fields given change, the search text follows, and the user is announced', async () => {
    const ada = randomUUID();
    const then = await users
      .given(await user(ada, registered(ada, 'ada')))
      .when(await user(ada, { type: 'ProfileUpdated', data: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@math.org' } }));
    expect(await row(users.pool, ada)).toMatchObject({
      username: 'ada',
      email: 'ada@math.org',
      first_name: 'Ada',
      last_name: 'Lovelace',
      search: 'ada ada@math.org ada lovelace',
    });
    expect(then.announced).toEqual([ada]);
  });

  it('plan change: EntitlementsChanged gives the user its plan and limit, and announces the user', async () => {
    const ada = randomUUID();
    const bob = randomUUID();
    const then = await users
      .given(freePlan(2), proPlan(), await user(ada, registered(ada, 'ada')), await user(bob, registered(bob, 'bob')))
      .when(entitlements(ada, 'pro', 10));
    expect(await directory().findById(ada)).toMatchObject({ subscription_plan: 'pro', max_clients: 10 });
    expect(await directory().findById(bob)).toMatchObject({ subscription_plan: 'free', max_clients: 2 });
    expect(then.announced).toEqual([ada]);
  });

  it('the free plan’s limit: users billing gave no entitlements follow it, the others keep theirs', async () => {
    const ada = randomUUID();
    const bob = randomUUID();
    // Registered before the plans were seeded: the free plan's limit reaches them when it is created.
    const then = await users
      .given(await user(ada, registered(ada, 'ada')), await user(bob, registered(bob, 'bob')), freePlan(2), entitlements(bob, 'free', 2))
      .when(
        stream('plan-free', { type: 'PlanUpdated', data: { planId: 'free', changes: { maxClientsPerNetwork: 3 } } } satisfies PlanEvent),
      );
    expect((await directory().findById(ada))?.max_clients).toBe(3);
    expect((await directory().findById(bob))?.max_clients).toBe(2); // until billing refreshes bob's entitlements
    expect(then.announced).toEqual([EVERYONE]);
  });

  it('model access change: a model appears in the allowed models of its plans’ users only while active, announced to everyone', async () => {
    const ada = randomUUID();
    const llama = randomUUID();
    const given = [freePlan(), proPlan(), await user(ada, registered(ada, 'ada')), entitlements(ada, 'pro', 10)];
    const allowed = async () => (await directory().findById(ada))?.allowed_models;

    const opened = await users
      .given(...given, model(llama, uploaded('llama', ['free']), published))
      .when(model(llama, { type: 'ModelAccessChanged', data: { from: ['free'], to: ['free', 'pro'], bulk: false } }));
    expect(await allowed()).toEqual(['llama']);
    expect(opened.announced).toEqual([EVERYONE]);

    const deactivated = await users.given().when(model(llama, { type: 'ModelDeactivated', data: {} }));
    expect(await allowed()).toEqual([]);
    expect(deactivated.announced).toEqual([EVERYONE]);

    // An inactive model's access changes no one's list: nothing to announce.
    const closed = await users
      .given()
      .when(model(llama, { type: 'ModelAccessChanged', data: { from: ['free', 'pro'], to: ['free'], bulk: false } }));
    expect(closed.announced).toEqual([]);
    const reactivated = await users.given().when(model(llama, { type: 'ModelReactivated', data: {} }));
    expect(await allowed()).toEqual([]); // active again, but no longer open to pro
    expect(reactivated.announced).toEqual([EVERYONE]);
  });

  it('models still uploading, failed or deleted are no one’s; allowed models are sorted by name', async () => {
    const ada = randomUUID();
    const [a, b, c, d] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    await users
      .given(freePlan(), await user(ada, registered(ada, 'ada')))
      .when(
        model(a, uploaded('zephyr', ['free']), published),
        model(b, uploaded('alpaca', ['free']), published),
        model(c, uploaded('uploading', ['free'])),
        model(d, uploaded('failed', ['free']), { type: 'ModelProcessingFailed', data: { reason: 'bad', objectKeys: [] } }),
      );
    expect((await directory().findById(ada))?.allowed_models).toEqual(['alpaca', 'zephyr']);
    const then = await users.given().when(model(a, { type: 'ModelDeleted', data: { objectKeys: [] } }));
    expect((await directory().findById(ada))?.allowed_models).toEqual(['alpaca']);
    expect(then.announced).toEqual([EVERYONE]);
    // The catalog's models table is the one record of them (identity keeps no copy).
    expect(await then.rows(`SELECT name FROM rm_catalog.models ORDER BY name`)).toEqual([{ name: 'alpaca' }, { name: 'uploading' }]);
  });

  it('account deletion: the row goes and the user is announced', async () => {
    const ada = randomUUID();
    const bob = randomUUID();
    const then = await users
      .given(await user(ada, registered(ada, 'ada')), await user(bob, registered(bob, 'bob')), entitlements(ada, 'pro', 10))
      .when(await user(ada, { type: 'UserDeleted', data: {} }));
    expect(await then.rows(`SELECT id FROM ${users.schema}.users`)).toEqual([{ id: bob }]);
    expect(await directory().findById(ada)).toBeNull();
    expect(then.announced).toEqual([ada]);
  });
});
