import type { Pool } from 'pg';

/** What one request's count says: the window's limit, what is left, and seconds until it resets. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  resetSeconds: number;
  allowed: boolean;
}

/** The window, in seconds: the plan's limit is per minute. */
export const RATE_WINDOW_SECONDS = 60;

/**
 * Per-token request counts in PostgreSQL, a fixed one-minute window per token, so the limit
 * holds however many api instances serve the token: one upsert per request, the row lock
 * serialising concurrent requests of the same token and nothing else. The window is the
 * database's clock, not the instances' (which may disagree). One row per token, reset in
 * place when a new minute starts, so the table never grows past the number of tokens.
 */
export class ApiRateLimits {
  constructor(private readonly pool: Pool) {}

  async hit(tokenId: string, limit: number): Promise<RateLimitState> {
    const { rows } = await this.pool.query<{ count: number; reset: number }>(
      `INSERT INTO identity_api_rate_windows AS w (token_id, window_start, count)
       VALUES ($1, date_trunc('minute', now()), 1)
       ON CONFLICT (token_id) DO UPDATE
         SET count = CASE WHEN w.window_start = EXCLUDED.window_start THEN w.count + 1 ELSE 1 END,
             window_start = EXCLUDED.window_start
       RETURNING count, ceil(extract(epoch FROM window_start + interval '${RATE_WINDOW_SECONDS} seconds' - now()))::int AS reset`,
      [tokenId],
    );
    const { count, reset } = rows[0]!;
    return { limit, remaining: Math.max(0, limit - count), resetSeconds: Math.max(1, reset), allowed: count <= limit };
  }
}
