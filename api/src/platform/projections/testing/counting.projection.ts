import type { PoolClient } from 'pg';
import type { RecordedEvent } from '@meshwork/contracts';
import type { Projection } from '../projection';

/**
 * A projection for runner tests that shows any double or lost effect: every application
 * adds a row (no unique key on purpose) and bumps a total.
 *
 * CRASH_AT_POSITION makes the process kill itself right after applying that event, inside
 * the runner's open transaction: the moment between handler and commit.
 *
 * A 'Poisoned' event carries a number PostgreSQL refuses as an integer, a real error, until
 * a fix is "deployed": CURED=1 in the environment (a restart with new code), or the table
 * public.cure existing (a fix that a runner in another process sees without restarting).
 */
export const countingProjection: Projection = {
  name: 'counting',
  handles: ['ThingHappened', 'Poisoned'],
  async createTables(db: PoolClient, schema: string) {
    await db.query(`CREATE TABLE ${schema}.applied (event_id uuid NOT NULL, position bigint NOT NULL)`);
    await db.query(`CREATE TABLE ${schema}.totals (id int PRIMARY KEY, n int NOT NULL)`);
    await db.query(`INSERT INTO ${schema}.totals VALUES (1, 0)`);
  },
  async apply(db: PoolClient, schema: string, event: RecordedEvent) {
    if (event.type === 'Poisoned' && !(await cured(db))) await db.query('SELECT $1::integer', [(event.data as { n: number }).n]);
    await db.query(`INSERT INTO ${schema}.applied VALUES ($1, $2)`, [event.eventId, event.position]);
    await db.query(`UPDATE ${schema}.totals SET n = n + 1 WHERE id = 1`);
    if (Number(process.env.CRASH_AT_POSITION) === event.position) process.kill(process.pid, 'SIGKILL');
  },
};

async function cured(db: PoolClient): Promise<boolean> {
  if (process.env.CURED === '1') return true;
  const { rows } = await db.query<{ cured: boolean }>("SELECT to_regclass('public.cure') IS NOT NULL AS cured");
  return rows[0]!.cured;
}

/** The poison: 3,000,000,000 is out of range for type integer. */
export const poisoned = { type: 'Poisoned', data: { n: 3_000_000_000 } };

export interface CountingState {
  total: number;
  rows: number;
  distinct: number;
  checkpoint: number;
}

export async function countingState(db: { query: PoolClient['query'] }): Promise<CountingState> {
  const { rows } = await db.query<{ total: number; rows: string; distinct: string; checkpoint: string | null }>(`
    SELECT (SELECT n FROM rm_counting.totals WHERE id = 1) AS total,
           (SELECT count(*) FROM rm_counting.applied) AS rows,
           (SELECT count(DISTINCT event_id) FROM rm_counting.applied) AS distinct,
           (SELECT position FROM projection_checkpoints WHERE name = 'counting') AS checkpoint`);
  const r = rows[0]!;
  return { total: r.total, rows: Number(r.rows), distinct: Number(r.distinct), checkpoint: Number(r.checkpoint ?? 0) };
}
