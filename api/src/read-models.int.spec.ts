import { randomBytes, randomUUID } from 'node:crypto';
import { PersonalDataVault } from './identity/infrastructure/personal-data-vault';
import { signingKeySpec } from './platform/config/config';
import { newSigningKey } from './platform/config/secrets';
import { migrations } from './migrations';
import { PostgresEventStore } from './platform/event-store/postgres-event-store';
import { anEvent } from '@meshwork/testkit/api/an-event';
import { createTestDatabase, type TestDatabase } from '@meshwork/testkit/api/test-database';
import { buildReadModels } from './read-models';
import { readFailures } from './platform/projections/consumer-failures';
import { ProjectionRunner } from './platform/projections/projection-runner';
import { eventually } from '@meshwork/testkit/eventually';
import { eventWithoutActor, hugeEntitlements, hugePlan, releaseWithHugeVersionPart, userEvent } from '@meshwork/testkit/api/poison-events';

/**
 * Each real read model against events already in the log that it could not write before
 * issue 10: written now (U+0000 dropped, numbers in range), or, where its code cannot write
 * them yet, stalled where everyone can see it, the other read models going on.
 */
describe('Events the log holds that a read model could not write', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let vault: PersonalDataVault;
  let runners: ProjectionRunner[];

  beforeEach(async () => {
    db = await createTestDatabase(migrations, 20);
    store = new PostgresEventStore(db.pool);
    const dataEncryptionKey = randomBytes(32);
    vault = new PersonalDataVault(db.pool, dataEncryptionKey);
    runners = buildReadModels(db.pool, {
      jwtSecret: randomBytes(48),
      dataEncryptionKey,
      entitlementKeys: { signing: signingKeySpec.parse(newSigningKey()), published: [] },
    }).map((projection) =>
      new ProjectionRunner(db.pool, store, projection, { idleWaitMs: 20, retry: { attempts: 2, firstDelayMs: 50, pollMs: 50 } }).start(),
    );
  });
  afterEach(async () => {
    await Promise.all(runners.map((r) => r.stop()));
    await store.close();
    await db.drop();
  });

  const append = async ({ streamId, events }: { streamId: string; events: Parameters<PostgresEventStore['append']>[1] }) =>
    (await store.append(streamId, events, 'any')).positions;
  const caughtUp = async (name: string) => {
    const head = await store.headPosition();
    await eventually(async () => {
      const { rows } = await db.pool.query<{ position: string }>('SELECT position FROM projection_checkpoints WHERE name = $1', [name]);
      return Number(rows[0]?.position) === head;
    }, `${name} to catch up`);
  };
  const failures = () => readFailures(db.pool, ['audit_trail', 'users', 'billing', 'catalog']);

  it('users: a name holding U+0000 (encrypted in the log) is written without it, and later users still arrive', async () => {
    const userId = randomUUID();
    await vault.createKey(userId);
    const registered = { userId, email: `${userId}@example.com`, username: `u_${userId.slice(0, 8)}`, passwordHash: 'x', isStaff: false };
    await append({
      streamId: `user-${userId}`,
      events: [
        await userEvent(vault, userId, { type: 'UserRegistered', data: registered }),
        await userEvent(vault, userId, { type: 'ProfileUpdated', data: { firstName: 'a\u0000b', lastName: '\u0000c\u0000' } }),
      ],
    });
    const later = randomUUID();
    await vault.createKey(later);
    await append({
      streamId: `user-${later}`,
      events: [
        await userEvent(vault, later, { type: 'UserRegistered', data: { ...registered, userId: later, email: `${later}@example.com` } }),
      ],
    });

    await caughtUp('users');
    const { rows } = await db.pool.query('SELECT id, first_name, last_name, search FROM rm_users.users ORDER BY created_at, id');
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: userId, first_name: 'ab', last_name: 'c', search: expect.stringContaining(' ab c') }),
        expect.objectContaining({ id: later }),
      ]),
    );
    expect(await failures()).toEqual(new Map());
  });

  it('billing: limits past 2^31 in plans and entitlements are held as they are', async () => {
    const planId = `huge-${randomUUID().slice(0, 8)}`;
    await append(hugePlan(planId));
    const userId = randomUUID();
    await append(hugeEntitlements(userId, planId));

    await caughtUp('billing');
    const plan = await db.pool.query('SELECT duration_days, max_networks, max_clients_per_network FROM rm_billing.plans WHERE id = $1', [
      planId,
    ]);
    expect(plan.rows).toEqual([{ duration_days: 2_000_000_000, max_networks: 3_000_000_000, max_clients_per_network: 4_000_000_000 }]);
    const entitlements = await db.pool.query(
      'SELECT max_networks, max_clients_per_network FROM rm_billing.entitlements WHERE user_id = $1',
      [userId],
    );
    expect(entitlements.rows).toEqual([{ max_networks: 3_000_000_000, max_clients_per_network: 4_000_000_000 }]);
    expect(await failures()).toEqual(new Map());
  });

  it('catalog: a release version part past 2^31 stalls it visibly at that event; the others go on', async () => {
    const [poisonAt] = await append(releaseWithHugeVersionPart());
    const later = `release-${randomUUID()}`;
    await append({ streamId: later, events: [anEvent({ type: 'ReleaseActivated', data: { version: '1.0.0' } })] });

    await eventually(async () => (await failures()).get('catalog')?.state === 'stalled', 'catalog to stall');
    expect((await failures()).get('catalog')).toMatchObject({
      position: poisonAt,
      eventType: 'ReleaseUploaded',
      error: expect.stringMatching(/out of range for type integer/),
    });
    const { rows } = await db.pool.query<{ position: string }>("SELECT position FROM projection_checkpoints WHERE name = 'catalog'");
    expect(Number(rows[0]!.position)).toBe(poisonAt! - 1);
    for (const name of ['audit_trail', 'users', 'billing']) await caughtUp(name);
    expect([...(await failures()).keys()]).toEqual(['catalog']);
  });

  it('audit_trail: an event whose envelope lacks the actor stalls it visibly at that event; the others go on', async () => {
    const [poisonAt] = await append(eventWithoutActor());
    await append(hugePlan(`after-${randomUUID().slice(0, 8)}`));

    await eventually(async () => (await failures()).get('audit_trail')?.state === 'stalled', 'audit trail to stall');
    expect((await failures()).get('audit_trail')).toMatchObject({
      position: poisonAt,
      eventType: 'ThingHappened',
      error: expect.stringMatching(/userId/),
    });
    const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM rm_audit_trail.entries WHERE position >= $1', [poisonAt]);
    expect(rows).toEqual([{ n: 0 }]);
    for (const name of ['users', 'billing', 'catalog']) await caughtUp(name);
  });
});
