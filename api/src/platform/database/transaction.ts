import type { Pool, PoolClient } from 'pg';
import { holdConnection } from './held-connection';

/** Runs `work` in one transaction on one pooled connection: commit on success, roll back on any error. */
export async function withTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** Lock class of the jobs that one process at a time should run (see `alone`). */
const JOB_LOCK_CLASS = 4343;

/**
 * Runs `work` unless another process is running the job of this name (a PostgreSQL
 * session advisory lock, released when the work ends or the connection drops): answers
 * null then. For periodic jobs every instance schedules but one should do.
 */
export function alone<T>(pool: Pool, job: string, work: () => Promise<T>): Promise<T | null> {
  return holdingJobLock(pool, job, 'pg_try_advisory_lock', work);
}

/** Runs `work` once no other process is running the job of this name (waiting for it). */
export async function inTurn<T>(pool: Pool, job: string, work: () => Promise<T>): Promise<T> {
  return (await holdingJobLock(pool, job, 'pg_advisory_lock', work))!;
}

async function holdingJobLock<T>(
  pool: Pool,
  job: string,
  lock: 'pg_try_advisory_lock' | 'pg_advisory_lock',
  work: () => Promise<T>,
): Promise<T | null> {
  // Held while `work` runs on other connections: its death (a server restart) must not crash us.
  const connection = await holdConnection(pool);
  try {
    const { rows } = await connection.client.query<{ locked: boolean | '' }>(`SELECT ${lock}($1, hashtext($2)) AS locked`, [
      JOB_LOCK_CLASS,
      job,
    ]);
    if (rows[0]!.locked === false) return null; // pg_advisory_lock answers void: it waited until it had it
    try {
      return await work();
    } finally {
      // A connection that died took its lock with it.
      if (connection.alive) await connection.client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [JOB_LOCK_CLASS, job]);
    }
  } finally {
    connection.release();
  }
}
