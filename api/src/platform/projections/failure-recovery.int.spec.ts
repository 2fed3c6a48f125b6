import { eventStoreMigrations } from '../event-store/event-store.schema';
import { PostgresEventStore } from '../event-store/postgres-event-store';
import { anEvent, events } from '@meshwork/testkit/api/an-event';
import { createTestDatabase, type TestDatabase } from '@meshwork/testkit/api/test-database';
import { checkpointMigrations } from './checkpoints.schema';
import { readFailures, requestRetry } from './consumer-failures';
import { consumerStatus } from './consumer-status';
import { ProjectionRunner } from './projection-runner';
import { rebuildProjection } from './rebuild-projection';
import { countingProjection, countingState, poisoned } from './testing/counting.projection';
import { eventually } from '@meshwork/testkit/eventually';

const migrations = [...eventStoreMigrations, ...checkpointMigrations];
const quickRetry = { attempts: 3, firstDelayMs: 150, maxDelayMs: 400, pollMs: 20 };
/** Retries that wait for a request (or a stop) rather than come by themselves: a test reads the state between attempts. */
const noRetryUnasked = { ...quickRetry, firstDelayMs: 3_600_000, maxDelayMs: 3_600_000 };

describe('A projection that cannot apply an event', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let poisonAt: number;
  const runners: ProjectionRunner[] = [];

  beforeEach(async () => {
    db = await createTestDatabase(migrations, 20);
    store = new PostgresEventStore(db.pool);
    // Five events, the poison, five more: all in one batch for the runner.
    await store.append('thing-before', events(5), 0);
    poisonAt = (await store.append('thing-poison', [anEvent(poisoned)], 0)).positions[0]!;
    await store.append('thing-after', events(5), 0);
  });
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop()));
    await store.close();
    await db.drop();
  });

  const run = (options = {}) => {
    const runner = new ProjectionRunner(db.pool, store, countingProjection, { idleWaitMs: 20, retry: quickRetry, ...options }).start();
    runners.push(runner);
    return runner;
  };
  const failure = async () => (await readFailures(db.pool, ['counting'])).get('counting');
  const status = async () => (await consumerStatus(db.pool, ['counting']))[0]!;
  const cure = () => db.pool.query('CREATE TABLE public.cure ()');
  /**
   * Asks a stalled runner to retry and waits until it has stalled again after a full round:
   * a later failure with the round's attempts (a round that did not start afresh would count on).
   */
  const retriedAndStalledAgain = async (what: string) => {
    const before = (await failure())!;
    await requestRetry(db.pool, 'counting');
    await eventually(async () => {
      const now = await failure();
      return now?.state === 'stalled' && now.attempts === quickRetry.attempts && now.lastFailedAt > before.lastFailedAt;
    }, what);
  };
  /** How often the runner has looked for a retry request (its takeRetryRequest) from now on. */
  const lookingForRetryRequests = () => {
    const query = jest.spyOn(db.pool, 'query');
    return () => query.mock.calls.filter(([text]) => typeof text === 'string' && text.includes('SET retry_requested_at = NULL')).length;
  };
  const decideToSkip = (position: number) =>
    store.append(
      'projection-counting',
      [anEvent({ type: 'ProjectionEventSkipped', data: { projection: 'counting', position, reason: 'test' } })],
      'any',
    );

  it('applies the events before it, records failing with the event and error, then stalls after N attempts', async () => {
    // First a runner whose next attempt waits to be asked for, so "failing" holds while it is read.
    const waiting = run({ retry: noRetryUnasked });
    await eventually(async () => (await failure())?.state === 'failing', 'failing');
    expect(await failure()).toMatchObject({
      position: poisonAt,
      eventType: 'Poisoned',
      attempts: 1,
      error: 'value "3000000000" is out of range for type integer',
    });
    // Committed up to the event before the poison; nothing after it.
    expect(await countingState(db.pool)).toEqual({ total: 5, rows: 5, distinct: 5, checkpoint: poisonAt - 1 });
    expect((await status()).state).toBe('failing');
    await waiting.stop();

    const retryLooks = lookingForRetryRequests();
    const runner = run();
    await eventually(async () => (await failure())?.state === 'stalled', 'stalled');
    expect(await failure()).toMatchObject({ attempts: quickRetry.attempts, position: poisonAt });
    expect(runner.state).toBe('stalled');
    expect(await status()).toMatchObject({ state: 'stalled', running: true, positionsBehind: 6 });
    // Stalled means no more attempts: the record stays as it is while the runner looks for a
    // retry request, more often than a failing runner would before its next attempt.
    const { lastFailedAt } = (await failure())!;
    const looksBefore = retryLooks();
    const looksPastLongestBackoff = Math.ceil(quickRetry.maxDelayMs / quickRetry.pollMs) + 2;
    await eventually(async () => retryLooks() >= looksBefore + looksPastLongestBackoff, 'the stalled runner to look for a retry request');
    expect((await failure())!.lastFailedAt).toEqual(lastFailedAt);
    expect(runner.state).toBe('stalled');
    expect((await countingState(db.pool)).total).toBe(5);
  });

  it('resumes at restart once fixed, applying the event and everything after it', async () => {
    const stalled = run();
    await eventually(async () => (await failure())?.state === 'stalled', 'stalled');
    await stalled.stop();
    await cure(); // the fix that ships with the restart
    run();
    const head = await store.headPosition();
    await eventually(async () => (await countingState(db.pool)).checkpoint === head, 'catch-up');
    expect(await countingState(db.pool)).toEqual({ total: 11, rows: 11, distinct: 11, checkpoint: head });
    expect(await failure()).toBeUndefined();
    expect((await status()).state).toBe('up');
  });

  it('tries again, without a fix, at restart: a stalled projection gets a fresh round', async () => {
    const stalled = run();
    await eventually(async () => (await failure())?.state === 'stalled', 'stalled');
    await stalled.stop();
    run({ retry: noRetryUnasked });
    await eventually(async () => (await failure())?.state === 'failing', 'failing again');
    expect(await failure()).toMatchObject({ attempts: 1, position: poisonAt });
  });

  it('reports a projection that lags while no process runs it as not running', async () => {
    expect(await status()).toMatchObject({ state: 'not_running', running: false, positionsBehind: 11 });
    const runner = run();
    await eventually(async () => (await failure())?.state !== undefined, 'a failure');
    await runner.stop();
    // The failure is what it is stuck on, run or not.
    expect((await status()).state).toMatch(/failing|stalled/);
  });

  it('skips exactly the decided position, and only once the decision is in the log', async () => {
    run();
    await eventually(async () => (await failure())?.state === 'stalled', 'stalled');
    // A retry alone does not skip: the event fails again, a new round, stalled again.
    await retriedAndStalledAgain('a fresh round, stalled again');
    // A decision about another position changes nothing.
    await decideToSkip(poisonAt + 1);
    await retriedAndStalledAgain('another round, stalled again');
    expect((await countingState(db.pool)).total).toBe(5);

    await decideToSkip(poisonAt);
    await requestRetry(db.pool, 'counting');
    const head = await store.headPosition();
    await eventually(async () => (await countingState(db.pool)).checkpoint === head, 'skip and catch-up');
    // Ten applied (the poison not), and the two decisions only moved the checkpoint.
    expect(await countingState(db.pool)).toEqual({ total: 10, rows: 10, distinct: 10, checkpoint: head });
    expect((await db.pool.query('SELECT 1 FROM rm_counting.applied WHERE position = $1', [poisonAt])).rowCount).toBe(0);
    expect(await failure()).toBeUndefined();
  });

  it('rebuilds up to the event it cannot apply, or past it when staff decided to skip it', async () => {
    expect(await rebuildProjection(db.pool, store, countingProjection)).toBe(poisonAt - 1);
    expect(await countingState(db.pool)).toEqual({ total: 5, rows: 5, distinct: 5, checkpoint: poisonAt - 1 });

    await decideToSkip(poisonAt);
    const head = await store.headPosition();
    expect(await rebuildProjection(db.pool, store, countingProjection)).toBe(head);
    expect(await countingState(db.pool)).toEqual({ total: 10, rows: 10, distinct: 10, checkpoint: head });
  });
});
