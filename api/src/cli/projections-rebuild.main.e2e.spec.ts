import { anEvent } from '@meshwork/testkit/api/an-event';
import { PostgresEventStore } from '../platform/event-store/postgres-event-store';
import { createTestDatabase, type TestDatabase } from '@meshwork/testkit/api/test-database';
import { migrations } from '../migrations';
import { runMain } from './testing/run-main';

const rebuild = (args: string[], databaseUrl: string) => runMain('projections-rebuild.main.ts', args, databaseUrl);

/** `npm run projections:rebuild -- <name> --until <position|time> --into <schema>`: a read model as it stood then, beside the live one. */
describe('projections:rebuild --until --into', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  const registered = (day: string) => anEvent({ type: 'UserRegistered', data: {}, occurredAt: new Date(`${day}T12:00:00Z`) });

  beforeEach(async () => {
    db = await createTestDatabase(migrations);
    store = new PostgresEventStore(db.pool);
    for (const [user, day] of [
      ['a', '2026-03-01'],
      ['b', '2026-03-02'],
      ['c', '2026-03-03'],
    ]) {
      await store.append(`user-${user}`, [registered(day!)], 0);
    }
  });
  afterEach(async () => {
    await store.close();
    await db.drop();
  });

  const days = async (schema: string) =>
    (await db.pool.query<{ day: string }>(`SELECT day::text FROM ${schema}.user_days ORDER BY day`)).rows.map((row) => row.day);

  it('fills the schema up to a position or a time, replaces only its own replays, and leaves the live read model alone', async () => {
    const second = (await store.readAll(0, 10))[1]!.position;
    const byPosition = await rebuild(['analytics', '--until', String(second), '--into', 'audit_then'], db.url);
    expect(byPosition).toMatchObject({ code: 0, stdout: expect.stringContaining(`up to position ${second}`) });
    expect(await days('audit_then')).toEqual(['2026-03-01', '2026-03-02']);

    // A replay's schema may be replaced by the next replay.
    expect(await rebuild(['analytics', '--until', '2026-03-01T23:59:59Z', '--into', 'audit_then'], db.url)).toMatchObject({ code: 0 });
    expect(await days('audit_then')).toEqual(['2026-03-01']);
    // No live read model was made or moved.
    const { rows } = await db.pool.query("SELECT 1 FROM pg_namespace WHERE nspname = 'rm_analytics'");
    expect(rows).toEqual([]);
  });

  it('refuses what would touch anything but a replay schema, with a reason', async () => {
    await db.pool.query('CREATE SCHEMA mine');
    const refusals = [
      [['analytics', '--until', '2'], /--until needs --into/],
      [['analytics', '--until', 'soon', '--into', 'x'], /neither a log position nor a time/],
      [['nonesuch', '--until', '2', '--into', 'x'], /Known projections: .*analytics/],
      [['analytics', '--until', '2', '--into', 'rm_users'], /cannot hold a replay/],
      [['analytics', '--until', '2', '--into', 'mine'], /exists and is not a replay/],
    ] as const;
    for (const [args, reason] of refusals) {
      const result = await rebuild([...args], db.url);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(reason);
    }
  });
});
