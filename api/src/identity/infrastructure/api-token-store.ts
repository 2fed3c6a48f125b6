import type { Pool } from 'pg';
import type { ApiToken, ApiTokenScope } from '@meshwork/contracts';
import { API_TOKEN_PREFIX } from '@meshwork/contracts';
import type { Migration } from '../../platform/database/migrations';
import { notifyIdentityChanged } from '../../platform/database/notifications';

export const apiTokenMigrations: Migration[] = [
  {
    // Issue 35: long-lived API tokens, by the SHA-256 of their secret (api-token-secret.ts).
    id: '0104-identity-api-tokens',
    sql: `CREATE TABLE identity_api_tokens (
            id uuid PRIMARY KEY,
            user_id text NOT NULL,
            name text NOT NULL,
            scope text NOT NULL,
            token_hash text NOT NULL UNIQUE,
            last_four text NOT NULL,
            created_at timestamptz NOT NULL,
            expires_at timestamptz,
            last_used_at timestamptz,
            revoked_at timestamptz
          );
          CREATE INDEX identity_api_tokens_user ON identity_api_tokens (user_id, created_at);
          -- One row per token: the current fixed one-minute window and its count (api-rate-limits.ts).
          CREATE TABLE identity_api_rate_windows (
            token_id uuid PRIMARY KEY,
            window_start timestamptz NOT NULL,
            count integer NOT NULL
          );`,
  },
];

interface TokenRow {
  id: string;
  name: string;
  scope: ApiTokenScope;
  last_four: string;
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date | null;
  revoked_at: Date | null;
}

const COLUMNS = 'id, name, scope, last_four, created_at, last_used_at, expires_at, revoked_at';
const iso = (d: Date | null) => (d ? d.toISOString() : null);

const toApiToken = (row: TokenRow): ApiToken => ({
  id: row.id,
  name: row.name,
  prefix: API_TOKEN_PREFIX,
  last_four: row.last_four,
  scope: row.scope,
  created_at: row.created_at.toISOString(),
  last_used_at: iso(row.last_used_at),
  expires_at: iso(row.expires_at),
  revoked_at: iso(row.revoked_at),
});

/** A user may hold this many unrevoked tokens: enough for every integration, not a table to fill. */
export const MAX_API_TOKENS = 25;

/**
 * API tokens as security state, beside the sessions (session-store.ts): what authenticates a
 * request and when it was last used. Their history (created, revoked, by whom) is events on
 * the token's stream; this table is never rebuilt from them, as it holds the hash no event carries.
 */
export class ApiTokenStore {
  /** `changed` hears of every user whose tokens this store revoked, after the commit. */
  constructor(
    private readonly pool: Pool,
    private readonly changed: (userId: string) => void = () => undefined,
  ) {}

  async insert(token: {
    id: string;
    userId: string;
    name: string;
    scope: ApiTokenScope;
    hash: string;
    lastFour: string;
    createdAt: Date;
    expiresAt: Date | null;
  }): Promise<ApiToken> {
    const { rows } = await this.pool.query<TokenRow>(
      `INSERT INTO identity_api_tokens (id, user_id, name, scope, token_hash, last_four, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
      [token.id, token.userId, token.name, token.scope, token.hash, token.lastFour, token.createdAt, token.expiresAt],
    );
    return toApiToken(rows[0]!);
  }

  /** A user's tokens, newest first; revoked ones only when asked (the console). */
  async list(userId: string, withRevoked = false): Promise<ApiToken[]> {
    const { rows } = await this.pool.query<TokenRow>(
      `SELECT ${COLUMNS} FROM identity_api_tokens WHERE user_id = $1 ${withRevoked ? '' : 'AND revoked_at IS NULL'}
        ORDER BY created_at DESC, id LIMIT 500`,
      [userId],
    );
    return rows.map(toApiToken);
  }

  async countActive(userId: string): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM identity_api_tokens WHERE user_id = $1 AND revoked_at IS NULL',
      [userId],
    );
    return rows[0]!.n;
  }

  /**
   * Revokes a user's token and announces it (NOTIFY on commit), so every instance's cached
   * lookup is forgotten before the answer: the next request with it is refused. False when
   * the user has no such unrevoked token.
   */
  async revoke(userId: string, tokenId: string, now: Date): Promise<boolean> {
    const { rows } = await this.pool.query<{ user_id: string }>(
      `WITH revoked AS (
         UPDATE identity_api_tokens SET revoked_at = $3 WHERE id = $2 AND user_id = $1 AND revoked_at IS NULL RETURNING user_id
       )
       SELECT user_id, ${notifyIdentityChanged('user_id')} FROM revoked`,
      [userId, tokenId, now],
    );
    for (const { user_id } of rows) this.changed(user_id);
    return rows.length > 0;
  }

  /** Records a use, at most once a minute per token whichever instance served it (one indexed update, often a no-op). */
  async touch(tokenId: string, now: Date): Promise<void> {
    await this.pool.query(
      `UPDATE identity_api_tokens SET last_used_at = $2
        WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2::timestamptz - interval '1 minute')`,
      [tokenId, now],
    );
  }
}
