import { eventStoreMigrations } from '../platform/event-store/event-store.schema';
import { PostgresEventStore } from '../platform/event-store/postgres-event-store';
import { anEvent, events } from '@meshwork/testkit/api/an-event';
import { checkpointMigrations } from '../platform/projections/checkpoints.schema';
import { readFailures } from '../platform/projections/consumer-failures';
import { countingProjection, countingState, poisoned } from '../platform/projections/testing/counting.projection';
import { eventually } from '@meshwork/testkit/eventually';
import { spawnRunner, type RunnerProcess } from '../platform/projections/testing/spawn-runner';
import { createTestDatabase, type TestDatabase } from '@meshwork/testkit/api/test-database';
import { runMain } from './testing/run-main';

/** `npm run projections:retry`: the console's Retry for operators at a shell, reaching a runner in another process. */
describe('projections:retry', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let poisonAt: number;
  const children: RunnerProcess[] = [];

  beforeEach(async () => {
    db = await createTestDatabase([...eventStoreMigrations, ...checkpointMigrations], 20);
    store = new PostgresEventStore(db.pool);
    // Five events, the poison, five more: all in one batch for the runner.
    await store.append('thing-before', events(5), 0);
    poisonAt = (await store.append('thing-poison', [anEvent(poisoned)], 0)).positions[0]!;
    await store.append('thing-after', events(5), 0);
  });
  afterEach(async () => {
    children.splice(0).forEach((c) => c.child.kill('SIGKILL'));
    await store.close();
    await db.drop();
  });

  it('retries across processes when asked through the database, applying the fixed event', async () => {
    const child = spawnRunner({ DATABASE_URL: db.url, RETRY_ATTEMPTS: '2', RETRY_FIRST_DELAY_MS: '100', RETRY_POLL_MS: '50' });
    children.push(child);
    await child.reached('stalled');
    await db.pool.query('CREATE TABLE public.cure ()'); // the fix (see countingProjection)
    const cli = await runCli([countingProjection.name], db.url);
    expect(cli).toMatchObject({ code: 0, stdout: expect.stringContaining(`retry the Poisoned event at position ${poisonAt}`) });
    const head = await store.headPosition();
    await eventually(async () => (await countingState(db.pool)).checkpoint === head, 'child to apply after retry');
    expect(await countingState(db.pool)).toEqual({ total: 11, rows: 11, distinct: 11, checkpoint: head });
    expect((await readFailures(db.pool, ['counting'])).get('counting')).toBeUndefined();
    expect(await runCli(['nonesuch'], db.url)).toMatchObject({ code: 2, stderr: expect.stringContaining('Known: counting') });
  });
});

const runCli = (args: string[], databaseUrl: string) => runMain('projections-retry.main.ts', args, databaseUrl);
