import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import type { Migration } from '../../platform/database/migrations';
import { withTransaction } from '../../platform/database/transaction';
import { notifyIdentityChanged } from '../../platform/database/notifications';
import { isUuid } from '@meshwork/contracts';

export const sessionMigrations: Migration[] = [
  {
    id: '0102-identity-sessions',
    sql: `CREATE TABLE identity_sessions (
            id uuid PRIMARY KEY,
            user_id text NOT NULL,
            token_hash text NOT NULL,
            spent_hashes text[] NOT NULL DEFAULT '{}',
            created_at timestamptz NOT NULL,
            last_used_at timestamptz NOT NULL,
            expires_at timestamptz NOT NULL,
            revoked_at timestamptz,
            revoked_reason text
          );
          CREATE INDEX identity_sessions_open ON identity_sessions (user_id) WHERE revoked_at IS NULL;`,
  },
  {
    // A device's refresh-token family is a session bound to the device (issue 12): revoking
    // the device ends its sessions. Web sessions have none.
    id: '0103-identity-device-sessions',
    sql: `ALTER TABLE identity_sessions ADD COLUMN device_id uuid;
          CREATE INDEX identity_sessions_device ON identity_sessions (device_id) WHERE device_id IS NOT NULL AND revoked_at IS NULL;`,
  },
];

export type RotateResult =
  | { status: 'rotated'; sessionId: string; userId: string; deviceId: string | null; refreshToken: string }
  | { status: 'reused'; sessionId: string; userId: string; deviceId: string | null }
  | { status: 'invalid' };

const hash = (secret: string) => createHash('sha256').update(secret).digest('base64url');

/**
 * Refresh-token families. A session is one family: each refresh spends the presented token
 * and issues the next. Presenting a spent token means it was stolen (or replayed), so the
 * whole family is revoked. Tokens are `<session id>.<secret>`; only hashes are stored.
 * This is security state, not business history: the sign-ins and sign-outs themselves are
 * events on the user's stream.
 */
export class SessionStore {
  /** `changed` hears of every user whose sessions this store ended, after the commit. */
  constructor(
    private readonly pool: Pool,
    private readonly changed: (userId: string) => void = () => undefined,
  ) {}

  /** Opens a family; `deviceId` binds it to a device (revoking the device ends it). */
  async open(
    userId: string,
    now: Date,
    ttlDays: number,
    deviceId: string | null = null,
  ): Promise<{ sessionId: string; refreshToken: string }> {
    const sessionId = randomUUID();
    const secret = randomBytes(32).toString('base64url');
    await this.pool.query(
      `INSERT INTO identity_sessions (id, user_id, token_hash, created_at, last_used_at, expires_at, device_id)
       VALUES ($1, $2, $3, $4, $4, $4::timestamptz + make_interval(days => $5), $6)`,
      [sessionId, userId, hash(secret), now, ttlDays, deviceId],
    );
    return { sessionId, refreshToken: `${sessionId}.${secret}` };
  }

  /** Spends a refresh token; `devicesOnly` refuses web sessions' tokens as invalid (the device token endpoint). */
  async rotate(refreshToken: string, now: Date, devicesOnly = false): Promise<RotateResult> {
    const [sessionId, secret] = refreshToken.split('.');
    if (!sessionId || !secret || !isUuid(sessionId)) return { status: 'invalid' };
    const result = await withTransaction(this.pool, async (db): Promise<RotateResult> => {
      const { rows } = await db.query<{
        user_id: string;
        token_hash: string;
        spent_hashes: string[];
        expires_at: Date;
        revoked_at: Date | null;
        device_id: string | null;
      }>('SELECT user_id, token_hash, spent_hashes, expires_at, revoked_at, device_id FROM identity_sessions WHERE id = $1 FOR UPDATE', [
        sessionId,
      ]);
      const session = rows[0];
      if (!session || session.revoked_at || session.expires_at <= now) return { status: 'invalid' } as const;
      if (devicesOnly && !session.device_id) return { status: 'invalid' } as const;
      const deviceId = session.device_id;
      const presented = hash(secret);
      if (presented === session.token_hash) {
        const next = randomBytes(32).toString('base64url');
        await db.query(
          'UPDATE identity_sessions SET token_hash = $2, spent_hashes = array_append(spent_hashes, $3), last_used_at = $4 WHERE id = $1',
          [sessionId, hash(next), presented, now],
        );
        return { status: 'rotated', sessionId, userId: session.user_id, deviceId, refreshToken: `${sessionId}.${next}` } as const;
      }
      if (session.spent_hashes.includes(presented)) {
        await db.query(
          `WITH revoked AS (
             UPDATE identity_sessions SET revoked_at = $2, revoked_reason = 'refresh-token-reuse' WHERE id = $1 RETURNING user_id
           )
           SELECT ${notifyIdentityChanged('user_id')} FROM revoked`,
          [sessionId, now],
        );
        return { status: 'reused', sessionId, userId: session.user_id, deviceId } as const;
      }
      return { status: 'invalid' } as const;
    });
    if (result.status === 'reused') this.changed(result.userId);
    return result;
  }

  /** The session a refresh token names, if the token is its current one. */
  async sessionOf(refreshToken: string): Promise<{ sessionId: string; userId: string } | null> {
    const [sessionId, secret] = refreshToken.split('.');
    if (!sessionId || !secret || !isUuid(sessionId)) return null;
    const { rows } = await this.pool.query<{ user_id: string }>('SELECT user_id FROM identity_sessions WHERE id = $1 AND token_hash = $2', [
      sessionId,
      hash(secret),
    ]);
    return rows[0] ? { sessionId, userId: rows[0].user_id } : null;
  }

  async revoke(sessionId: string, reason: string, now: Date): Promise<void> {
    const { rows } = await this.pool.query<{ user_id: string }>(
      `WITH revoked AS (
         UPDATE identity_sessions SET revoked_at = $2, revoked_reason = $3 WHERE id = $1 AND revoked_at IS NULL RETURNING user_id
       )
       SELECT user_id, ${notifyIdentityChanged('user_id')} FROM revoked`,
      [sessionId, now, reason],
    );
    for (const { user_id } of rows) this.changed(user_id);
  }

  /** Ends every open session of a device (revoked), on every instance at once (NOTIFY on commit). */
  async revokeDevice(deviceId: string, reason: string, now: Date): Promise<void> {
    const { rows } = await this.pool.query<{ user_id: string }>(
      `WITH revoked AS (
         UPDATE identity_sessions SET revoked_at = $2, revoked_reason = $3 WHERE device_id = $1 AND revoked_at IS NULL RETURNING user_id
       )
       SELECT user_id, ${notifyIdentityChanged('user_id')} FROM revoked`,
      [deviceId, now, reason],
    );
    for (const { user_id } of rows) this.changed(user_id);
  }

  /** Revokes every open session of the user but `keep`; returns the ids revoked. */
  async revokeAll(userId: string, reason: string, now: Date, keep: string | null = null): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `WITH revoked AS (
         UPDATE identity_sessions SET revoked_at = $2, revoked_reason = $3
          WHERE user_id = $1 AND revoked_at IS NULL AND ($4::uuid IS NULL OR id <> $4::uuid) RETURNING id
       )
       SELECT id, ${notifyIdentityChanged('$1')} FROM revoked`,
      [userId, now, reason, keep],
    );
    if (rows.length > 0) this.changed(userId);
    return rows.map((r) => r.id);
  }
}
