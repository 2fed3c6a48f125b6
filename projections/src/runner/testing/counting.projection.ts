import type { PoolClient } from 'pg';
import type { RecordedEvent } from '../../../../contracts/src/events/event-envelope';
import type { Projection } from '../projection';

/**
 * A projection for runner tests that shows any double or lost effect: every application
 * adds a row (no unique key on purpose) and bumps a total.
 *
 * CRASH_AT_POSITION makes the process kill itself right after applying that event, inside
 * the runner's open transaction: the moment between handler and commit.
 */
export const countingProjection: Projection = {
  name: 'counting',
  handles: ['ThingHappened'],
  async createTables(db: PoolClient, schema: string) {
    await db.query(`CREATE TABLE ${schema}.applied (event_id uuid NOT NULL, position bigint NOT NULL)`);
    await db.query(`CREATE TABLE ${schema}.totals (id int PRIMARY KEY, n int NOT NULL)`);
    await db.query(`INSERT INTO ${schema}.totals VALUES (1, 0)`);
  },
  async apply(db: PoolClient, schema: string, event: RecordedEvent) {
    await db.query(`INSERT INTO ${schema}.applied VALUES ($1, $2)`, [event.eventId, event.position]);
    await db.query(`UPDATE ${schema}.totals SET n = n + 1 WHERE id = 1`);
    if (Number(process.env.CRASH_AT_POSITION) === event.position) process.kill(process.pid, 'SIGKILL');
  },
};

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
