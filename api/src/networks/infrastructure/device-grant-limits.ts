import type { Pool } from 'pg';
import type { Migration } from '../../platform/database/migrations';

export const deviceGrantMigrations: Migration[] = [
  {
    id: '0451-networks-device-grant-limits',
    sql: `-- When each device code was last polled and the interval its host must keep (RFC 8628 §3.5).
          CREATE TABLE networks_device_code_polls (
            code_id uuid PRIMARY KEY,
            last_polled_at timestamptz NOT NULL,
            interval_seconds integer NOT NULL,
            too_fast boolean NOT NULL
          );
          -- Wrong user codes typed on /activate, per user, in a sliding-start window.
          CREATE TABLE networks_device_code_misses (
            user_id text PRIMARY KEY,
            window_started_at timestamptz NOT NULL,
            misses integer NOT NULL
          );`,
  },
];

/** RFC 8628's default polling interval, and what slow_down adds to it. */
export const POLL_INTERVAL_SECONDS = 5;
/** Wrong user codes a person may type in a window before /activate refuses them all. */
export const MAX_CODE_MISSES = 10;
export const MISS_WINDOW_MINUTES = 15;

/**
 * Security state of the device grant, shared by every api instance through PostgreSQL
 * (like sessions, not business history: a poll every five seconds has no place in the
 * log). Each call is one statement, so concurrent instances count correctly.
 */
export class DeviceGrantLimits {
  constructor(private readonly pool: Pool) {}

  /**
   * Notes a poll of the code at `at`; true when it came before the code's interval was up,
   * which also lengthens the interval by five seconds for every later poll (RFC 8628 §3.5).
   * In the update, the table's columns are the row as it was.
   */
  async polled(codeId: string, at: Date): Promise<boolean> {
    const { rows } = await this.pool.query<{ too_fast: boolean }>(
      `INSERT INTO networks_device_code_polls AS p (code_id, last_polled_at, interval_seconds, too_fast) VALUES ($1, $2, $3, false)
       ON CONFLICT (code_id) DO UPDATE SET
         too_fast = p.last_polled_at + make_interval(secs => p.interval_seconds) > excluded.last_polled_at,
         interval_seconds = p.interval_seconds +
           CASE WHEN p.last_polled_at + make_interval(secs => p.interval_seconds) > excluded.last_polled_at THEN $3 ELSE 0 END,
         last_polled_at = excluded.last_polled_at
       RETURNING too_fast`,
      [codeId, at, POLL_INTERVAL_SECONDS],
    );
    return rows[0]!.too_fast;
  }

  /**
   * Takes one of the user's attempts at a user code: true while the window has one left. The
   * check and the count are one statement, so parallel requests cannot all pass a check made
   * before any of them was counted. Every attempt is counted as a miss until `found` gives back
   * those that named a real code; the count stops one past the limit (blocked is blocked).
   * A window older than MISS_WINDOW_MINUTES starts again.
   */
  async attempt(userId: string, at: Date): Promise<boolean> {
    const { rows } = await this.pool.query<{ allowed: boolean }>(
      `INSERT INTO networks_device_code_misses AS m (user_id, window_started_at, misses) VALUES ($1, $2, 1)
       ON CONFLICT (user_id) DO UPDATE SET
         misses = CASE WHEN m.window_started_at <= excluded.window_started_at - make_interval(mins => $3) THEN 1
                       ELSE LEAST(m.misses + 1, $4 + 1) END,
         window_started_at = CASE WHEN m.window_started_at <= excluded.window_started_at - make_interval(mins => $3)
                                  THEN excluded.window_started_at ELSE m.window_started_at END
       RETURNING misses <= $4 AS allowed`,
      [userId, at, MISS_WINDOW_MINUTES, MAX_CODE_MISSES],
    );
    return rows[0]!.allowed;
  }

  /** An attempt that named a real code was no miss: gives it back. */
  async found(userId: string): Promise<void> {
    await this.pool.query(`UPDATE networks_device_code_misses SET misses = GREATEST(misses - 1, 0) WHERE user_id = $1`, [userId]);
  }
}
