import { eventStoreMigrations } from '../event-store/event-store.schema';
import { PostgresEventStore } from '../event-store/postgres-event-store';
import { events } from '@meshwork/testkit/api/an-event';
import { createTestDatabase, type TestDatabase } from '@meshwork/testkit/api/test-database';
import { checkpointMigrations } from './checkpoints.schema';
import { ProjectionRunner } from './projection-runner';
import { projectionLag } from './projection-lag';
import { rebuildProjection } from './rebuild-projection';
import { countingProjection, countingState } from './testing/counting.projection';
import { eventually } from '@meshwork/testkit/eventually';
import { spawnRunner, type RunnerProcess } from './testing/spawn-runner';

const migrations = [...eventStoreMigrations, ...checkpointMigrations];

describe('ProjectionRunner', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  const children: RunnerProcess[] = [];

  beforeEach(async () => {
    db = await createTestDatabase(migrations, 20);
    store = new PostgresEventStore(db.pool);
  });
  afterEach(async () => {
    children.splice(0).forEach((c) => c.child.kill('SIGKILL'));
    await store.close();
    await db.drop();
  });

  async function appendThings(count: number, prefix = 'thing'): Promise<void> {
    for (let i = 0; i < count; i += 25) await store.append(`${prefix}-${i}`, events(Math.min(25, count - i)), 0);
  }

  it('applies each event exactly once when killed between handler and commit', async () => {
    await appendThings(300);
    const head = await store.headPosition();

    const crashing = spawnRunner({ DATABASE_URL: db.url, BATCH_SIZE: '50', CRASH_AT_POSITION: '140' });
    children.push(crashing);
    expect(await crashing.exited).toEqual({ code: null, signal: 'SIGKILL' });

    // Batches up to 100 committed; the batch holding 140 was applied in part, then died.
    expect(await countingState(db.pool)).toEqual({ total: 100, rows: 100, distinct: 100, checkpoint: 100 });

    const restarted = spawnRunner({ DATABASE_URL: db.url, BATCH_SIZE: '50' });
    children.push(restarted);
    await eventually(async () => (await countingState(db.pool)).checkpoint === head, 'catch-up after restart');
    expect(await countingState(db.pool)).toEqual({ total: 300, rows: 300, distinct: 300, checkpoint: head });
  });

  it('lets a standby take over when the active runner dies, with no double effect', async () => {
    const first = spawnRunner({ DATABASE_URL: db.url });
    children.push(first);
    await first.reached('active');
    const second = spawnRunner({ DATABASE_URL: db.url });
    children.push(second);
    await second.reached('standby');

    await appendThings(100, 'before');
    await eventually(async () => (await countingState(db.pool)).total === 100, 'first runner to apply');

    first.child.kill('SIGKILL');
    await first.exited;
    await second.reached('active');
    await appendThings(100, 'after');

    const head = await store.headPosition();
    await eventually(async () => (await countingState(db.pool)).checkpoint === head, 'standby to catch up');
    expect(await countingState(db.pool)).toEqual({ total: 200, rows: 200, distinct: 200, checkpoint: head });
  });

  it('rebuilds a read model built for another version before it serves, swapping it in whole', async () => {
    await appendThings(40);
    const first = new ProjectionRunner(db.pool, store, countingProjection, { idleWaitMs: 20 }).start();
    await eventually(async () => (await countingState(db.pool)).total === 40);
    await first.stop();
    // A table the old version made: the new shape must not inherit it.
    await db.pool.query('CREATE TABLE rm_counting.leftover (id int)');
    const head = await store.headPosition();

    const reshaped = new ProjectionRunner(db.pool, store, { ...countingProjection, version: 2 }, { idleWaitMs: 20 });
    await reshaped.ensureTables();
    // Whole before anything reads it: never a half-filled read model.
    expect(await countingState(db.pool)).toEqual({ total: 40, rows: 40, distinct: 40, checkpoint: head });
    expect((await db.pool.query("SELECT 1 FROM pg_tables WHERE schemaname = 'rm_counting' AND tablename = 'leftover'")).rowCount).toBe(0);
    expect((await db.pool.query("SELECT version FROM projection_checkpoints WHERE name = 'counting'")).rows).toEqual([{ version: 2 }]);

    reshaped.start();
    try {
      await appendThings(5, 'after');
      await eventually(async () => (await countingState(db.pool)).total === 45);
      // The same version again keeps what is there.
      await new ProjectionRunner(db.pool, store, { ...countingProjection, version: 2 }).ensureTables();
      expect((await countingState(db.pool)).total).toBe(45);
    } finally {
      await reshaped.stop();
    }
  });

  it('reports lag behind the head, and none once caught up', async () => {
    await appendThings(50);
    const runner = new ProjectionRunner(db.pool, store, countingProjection, { idleWaitMs: 50 });
    runner.start();
    try {
      await eventually(async () => (await countingState(db.pool)).total === 50);
      await runner.stop();
      await appendThings(10, 'late');
      const lag = async () => (await projectionLag(db.pool, ['counting']))[0]!;
      expect(await lag()).toMatchObject({ name: 'counting', positionsBehind: 10 });
      // The oldest unapplied event's wait grows while nothing applies it (it may read 0 ms at first).
      await eventually(async () => (await lag()).millisecondsBehind > 0, 'the lag to show how long the first late event has waited');
      expect(await lag()).toMatchObject({ positionsBehind: 10 });

      const again = new ProjectionRunner(db.pool, store, countingProjection, { idleWaitMs: 50 }).start();
      await eventually(async () => (await projectionLag(db.pool, ['counting']))[0]!.positionsBehind === 0);
      expect((await projectionLag(db.pool, ['counting']))[0]!.millisecondsBehind).toBe(0);
      await again.stop();
    } finally {
      await runner.stop();
    }
  });

  it('rebuilds from position 0 into fresh tables while readers and the live runner go on', async () => {
    await appendThings(2_000);
    const live = new ProjectionRunner(db.pool, store, countingProjection, { idleWaitMs: 20 }).start();
    try {
      await eventually(async () => (await countingState(db.pool)).total === 2_000);
      // Damage the live read model: a rebuild must recompute it from the log.
      await db.pool.query('UPDATE rm_counting.totals SET n = -1');

      let reading = true;
      let reads = 0;
      const readerErrors: unknown[] = [];
      const reader = (async () => {
        while (reading) {
          await db.pool.query('SELECT n FROM rm_counting.totals WHERE id = 1').then(
            () => reads++,
            (error) => readerErrors.push(error),
          );
        }
      })();
      const writer = appendThings(500, 'during');

      await rebuildProjection(db.pool, store, countingProjection);
      await writer;
      const head = await store.headPosition();
      await eventually(async () => (await countingState(db.pool)).checkpoint === head, 'live runner after swap');
      reading = false;
      await reader;

      expect(readerErrors).toEqual([]);
      expect(reads).toBeGreaterThan(10);
      expect(await countingState(db.pool)).toEqual({ total: 2_500, rows: 2_500, distinct: 2_500, checkpoint: head });
    } finally {
      await live.stop();
    }
  });
});
