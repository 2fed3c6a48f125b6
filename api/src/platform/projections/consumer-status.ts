import type { Pool } from 'pg';
import { type ConsumerFailure, readFailures } from './consumer-failures';
import { LOCK_CLASS } from './exclusive-follower';
import { type ProjectionLag, projectionLag } from './projection-lag';

/**
 * How a log consumer is doing. Up only while it applies events: caught up, or moving with a
 * process holding it. Failing while it retries an event, stalled once it stopped retrying,
 * not running when it lags and no process holds its lock.
 */
export type ConsumerState = 'up' | 'failing' | 'stalled' | 'not_running';

export interface ConsumerStatus extends ProjectionLag {
  state: ConsumerState;
  /** Whether some process holds the consumer's lock (is running it). */
  running: boolean;
  /** The event it is stuck on, while failing or stalled. */
  failure: ConsumerFailure | null;
}

/**
 * Every named consumer's state, read from the database alone, so any process can report
 * it: the api in embedded mode, or while workers in other processes run the consumers.
 */
export async function consumerStatus(pool: Pool, names: readonly string[]): Promise<ConsumerStatus[]> {
  const [lag, failures, running] = await Promise.all([projectionLag(pool, names), readFailures(pool, names), heldLocks(pool, names)]);
  return lag.map((l) => {
    // A record the checkpoint is already past is history (its runner had no chance to clear it yet).
    const failure = failures.get(l.name);
    const current = failure && failure.position > l.position ? failure : null;
    const holder = running.has(l.name);
    const state: ConsumerState = current ? current.state : !holder && l.positionsBehind > 0 ? 'not_running' : 'up';
    return { ...l, state, running: holder, failure: current };
  });
}

/** The consumers whose advisory lock (see ExclusiveFollower) some session in this database holds. */
async function heldLocks(pool: Pool, names: readonly string[]): Promise<Set<string>> {
  // pg_locks shows the two int4 keys as oids: the hash's 32 bits read unsigned.
  const { rows } = await pool.query<{ name: string }>(
    `SELECT n.name FROM unnest($1::text[]) AS n(name)
      WHERE EXISTS (SELECT 1 FROM pg_locks l
                     WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
                       AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                       AND l.classid = $2::integer::oid
                       AND l.objid = ((hashtext(n.name)::bigint + 4294967296) % 4294967296)::oid)`,
    [names, LOCK_CLASS],
  );
  return new Set(rows.map((r) => r.name));
}
