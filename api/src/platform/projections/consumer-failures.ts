import type { Pool } from 'pg';
import type { RecordedEvent } from '@meshwork/contracts';

export type FailureState = 'failing' | 'stalled';

/** The event a log consumer cannot get past, as projection_failures keeps it. */
export interface ConsumerFailure {
  name: string;
  position: number;
  eventId: string;
  eventType: string;
  state: FailureState;
  /** Attempts in the current round: a restart or a retry request starts a new one. */
  attempts: number;
  error: string;
  firstFailedAt: Date;
  lastFailedAt: Date;
}

const MAX_ERROR_LENGTH = 2_000;

/** The error as a line of text the table can hold (no NUL, bounded). */
export function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message || error.name : String(error);
  return text.replaceAll('\u0000', '').slice(0, MAX_ERROR_LENGTH);
}

/**
 * Records a failed attempt at `event`. The first failure time is kept while the same event
 * keeps failing; it starts again when the consumer is stuck somewhere new.
 */
export async function recordFailure(
  pool: Pool,
  name: string,
  event: RecordedEvent,
  error: unknown,
  attempts: number,
  state: FailureState,
): Promise<void> {
  await pool.query(
    `INSERT INTO projection_failures AS f (name, position, event_id, event_type, state, attempts, error)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (name) DO UPDATE SET position = $2, event_id = $3, event_type = $4, state = $5, attempts = $6, error = $7,
       first_failed_at = CASE WHEN f.position = $2 THEN f.first_failed_at ELSE now() END, last_failed_at = now()`,
    [name, event.position, event.eventId, event.type, state, attempts, errorText(error)],
  );
}

/** The consumer got past its failure (applied, or skipped by decision). */
export async function clearFailure(pool: Pool, name: string): Promise<void> {
  await pool.query('DELETE FROM projection_failures WHERE name = $1', [name]);
}

/**
 * Asks the consumer's runner, in whichever process holds it, to try its failing event again
 * now, with a fresh round of attempts. False when it is not failing.
 */
export async function requestRetry(pool: Pool, name: string): Promise<boolean> {
  const { rowCount } = await pool.query('UPDATE projection_failures SET retry_requested_at = now() WHERE name = $1', [name]);
  return rowCount !== 0;
}

/** Whether a retry was requested since the last call; the runner consumes the request. */
export async function takeRetryRequest(pool: Pool, name: string): Promise<boolean> {
  const { rowCount } = await pool.query(
    'UPDATE projection_failures SET retry_requested_at = NULL WHERE name = $1 AND retry_requested_at IS NOT NULL',
    [name],
  );
  return rowCount !== 0;
}

/** The recorded failures of these consumers, by name. */
export async function readFailures(pool: Pool, names: readonly string[]): Promise<Map<string, ConsumerFailure>> {
  const { rows } = await pool.query<{
    name: string;
    position: string;
    event_id: string;
    event_type: string;
    state: FailureState;
    attempts: number;
    error: string;
    first_failed_at: Date;
    last_failed_at: Date;
  }>('SELECT * FROM projection_failures WHERE name = ANY($1)', [names]);
  return new Map(
    rows.map((r) => [
      r.name,
      {
        name: r.name,
        position: Number(r.position),
        eventId: r.event_id,
        eventType: r.event_type,
        state: r.state,
        attempts: r.attempts,
        error: r.error,
        firstFailedAt: r.first_failed_at,
        lastFailedAt: r.last_failed_at,
      },
    ]),
  );
}
