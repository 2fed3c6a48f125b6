import type { Pool, QueryResultRow } from 'pg';
import type { NewEvent } from '@meshwork/contracts';
import { readFailures } from '../platform/projections/consumer-failures';
import { type Projection, readModelSchema } from '../platform/projections/projection';
import { ProjectionRunner } from '../platform/projections/projection-runner';
import { migrations } from '../migrations';
import { type HeldConnection, holdListener } from '../platform/database/held-connection';
import { PostgresEventStore } from '../platform/event-store/postgres-event-store';
import { createTestDatabase, type TestDatabase } from '@meshwork/testkit/api/test-database';
import { EVENTUALLY_MS } from '@meshwork/testkit/eventually';

/** Events of one stream, appended in this order. */
export interface StreamEvents {
  streamId: string;
  events: NewEvent[];
}

/** What the `when` events did: the read model's rows, and what was announced meanwhile. */
export interface Outcome {
  /** Rows of a query over the read model once the projection has run to the end. */
  rows<R extends QueryResultRow = Record<string, unknown>>(sql: string, values?: unknown[]): Promise<R[]>;
  /**
   * Payloads NOTIFYed on the `listen` channel while the `when` events were applied, in commit
   * order (PostgreSQL sends a payload repeated within one transaction, one batch, once).
   */
  announced: string[];
}

export interface ProjectionScenario {
  /** The test's database (for building events that need it, such as encrypted user events). */
  readonly pool: Pool;
  /** The projection's schema (`rm_<name>`), for queries. */
  readonly schema: string;
  given(...history: StreamEvents[]): { when(...events: StreamEvents[]): Promise<Outcome> };
}

const RUN_TIMEOUT_MS = EVENTUALLY_MS;

/**
 * Given/when/then for a read model, against real PostgreSQL and the real runner:
 *
 *   const users = projectionScenario((pool) => usersProjection(vault(pool)), { listen: 'identity_changed' });
 *   const then = await users.given(registered).when(entitlementsChanged);
 *   expect(await then.rows(`SELECT plan_id FROM ${users.schema}.users`)).toEqual([{ plan_id: 'pro' }]);
 *
 * Called in a `describe`: each test gets a fresh migrated database. `given` events are
 * appended and applied first; then the `when` events, in one batch, with the channel
 * `listen` names recorded. A test may go on with `given().when(...)` from where it is.
 * An event the projection cannot apply fails the test with the projection's error.
 */
export function projectionScenario(
  build: (pool: Pool) => Projection,
  options: { listen?: string; alongside?: (pool: Pool) => Projection[] } = {},
): ProjectionScenario {
  let db: TestDatabase | null = null;
  let store: PostgresEventStore | null = null;
  let projection: Projection | null = null;
  /** Read models run with the one under test (`alongside`), for reads that span several, as in the api. */
  let others: Projection[] = [];

  beforeEach(async () => {
    db = await createTestDatabase(migrations);
    store = new PostgresEventStore(db.pool);
    projection = build(db.pool);
    others = options.alongside?.(db.pool) ?? [];
  });
  afterEach(async () => {
    await store?.close();
    await db?.drop();
    db = store = projection = null;
    others = [];
  });

  const current = () => {
    if (!db || !store || !projection) throw new Error('projectionScenario is used inside a test of the describe that called it');
    return { pool: db.pool, store, projection };
  };

  async function append(streams: StreamEvents[]): Promise<void> {
    for (const { streamId, events } of streams) await current().store.append(streamId, events, 'any');
  }

  /** Waits for the projection to apply everything appended; throws the error of an event it cannot apply. */
  async function runToEnd(projection: Projection): Promise<void> {
    const { pool, store } = current();
    const head = await store.headPosition();
    const deadline = Date.now() + RUN_TIMEOUT_MS;
    for (;;) {
      const failure = (await readFailures(pool, [projection.name])).get(projection.name);
      if (failure) throw new Error(`${projection.name} could not apply ${failure.eventType} at ${failure.position}: ${failure.error}`);
      const { rows } = await pool.query<{ position: string }>('SELECT position FROM projection_checkpoints WHERE name = $1', [
        projection.name,
      ]);
      if (Number(rows[0]?.position ?? 0) >= head) return;
      if (Date.now() > deadline) throw new Error(`${projection.name} did not reach position ${head} within ${RUN_TIMEOUT_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /**
   * Runs the projection over everything appended, as a runner catching up does: the events
   * appended since the last run come in one batch (one transaction), so what a scenario
   * announces does not depend on timing.
   */
  async function runOverAppended(): Promise<void> {
    const { pool, store, projection } = current();
    // One attempt: an event the projection cannot apply fails the scenario at once.
    const runners = [projection, ...others].map(
      (p) => [p, new ProjectionRunner(pool, store, p, { idleWaitMs: 10, retry: { attempts: 1, firstDelayMs: 10, pollMs: 10 } })] as const,
    );
    for (const [, runner] of runners) await runner.ensureTables();
    for (const [, runner] of runners) runner.start();
    try {
      for (const [p] of runners) await runToEnd(p);
    } finally {
      for (const [, runner] of runners) await runner.stop();
    }
  }

  /**
   * Records a channel's payloads. `collect` returns those sent before it was called;
   * `release` (always, even on failure) gives back the LISTEN connection, which would
   * otherwise keep the test database from being dropped.
   */
  async function record(channel: string): Promise<{ collect(): Promise<string[]>; release(): void }> {
    const payloads: string[] = [];
    const sentinel = `end-of-scenario-${Math.random()}`;
    let sawSentinel!: () => void;
    const ended = new Promise<void>((resolve) => (sawSentinel = resolve));
    const listener: HeldConnection = await holdListener(current().pool, channel, (payload) =>
      payload === sentinel ? sawSentinel() : payloads.push(payload),
    );
    return {
      // Notifications reach a listener in commit order: once the sentinel arrives, all earlier ones have.
      async collect() {
        await current().pool.query('SELECT pg_notify($1, $2)', [channel, sentinel]);
        await ended;
        return payloads;
      },
      release: () => listener.release(true),
    };
  }

  return {
    get pool() {
      return current().pool;
    },
    get schema() {
      return readModelSchema(current().projection.name);
    },
    given: (...history) => ({
      async when(...events) {
        const { pool } = current();
        await append(history);
        await runOverAppended();
        const recording = options.listen ? await record(options.listen) : null;
        try {
          await append(events);
          await runOverAppended();
          return {
            announced: (await recording?.collect()) ?? [],
            rows: async <R extends QueryResultRow>(sql: string, values: unknown[] = []) => (await pool.query<R>(sql, values)).rows,
          };
        } finally {
          recording?.release();
        }
      },
    }),
  };
}
