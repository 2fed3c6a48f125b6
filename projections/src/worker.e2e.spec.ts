import { spawn } from 'node:child_process';
import path from 'node:path';
import { migrations } from '../../api/src/migrations';
import { PostgresEventStore } from '../../api/src/platform/event-store/postgres-event-store';
import { events } from '@meshwork/testkit/api/an-event';
import { createTestDatabase, type TestDatabase } from '@meshwork/testkit/api/test-database';
import { required } from '@meshwork/testkit/infra';
import { eventually } from '@meshwork/testkit/eventually';

/** The full-mode worker process: read models and the Kafka relay outside the api. */
describe('projections worker (npm run projections)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(migrations);
  });
  afterAll(() => db.drop());

  it('builds the audit trail and relays to Kafka, then stops on SIGTERM', async () => {
    const store = new PostgresEventStore(db.pool);
    await store.append('thing-1', events(3, { type: 'ThingHappened' }), 0);

    const worker = spawn(process.execPath, ['-r', '@swc-node/register', path.join(__dirname, 'main.ts')], {
      env: {
        ...process.env,
        DATABASE_URL: db.url,
        KAFKA_BROKERS: required('KAFKA_BROKERS'),
        KAFKA_TOPIC_PREFIX: `worker${Date.now()}`,
        LOG_LEVEL: 'warn',
      },
      stdio: 'inherit',
    });
    const exited = new Promise<number | null>((resolve) => worker.once('exit', (code) => resolve(code)));
    try {
      await store.append('thing-1', events(2, { type: 'ThingChanged' }), 3);
      const head = await store.headPosition();
      await eventually(
        async () => {
          const { rows } = await db.pool.query<{ name: string; position: string }>('SELECT name, position FROM projection_checkpoints');
          const at = Object.fromEntries(rows.map((r) => [r.name, Number(r.position)]));
          return at.audit_trail === head && at.kafka_relay === head;
        },
        60_000,
        'worker to catch up',
      );
      const { rows } = await db.pool.query('SELECT type, stream_id, actor_user_id FROM rm_audit_trail.entries ORDER BY position');
      expect(rows.map((r) => r.type)).toEqual(['ThingHappened', 'ThingHappened', 'ThingHappened', 'ThingChanged', 'ThingChanged']);
      expect(rows[0]).toMatchObject({ stream_id: 'thing-1', actor_user_id: 'user-1' });
    } finally {
      worker.kill('SIGTERM');
      expect(await exited).toBe(0);
      await store.close();
    }
  }, 120_000); // a worker compiled on the fly, and Kafka, on a loaded machine: past the 60 s wait above
});
