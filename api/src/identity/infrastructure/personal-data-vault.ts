import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import type { Migration } from '../../platform/database/migrations';

export const personalDataMigrations: Migration[] = [
  {
    id: '0101-identity-data-keys',
    sql: `CREATE TABLE identity_data_keys (
            user_id text PRIMARY KEY,
            wrapped_key bytea NOT NULL,
            created_at timestamptz NOT NULL DEFAULT now()
          );`,
  },
];

const PREFIX = 'enc:v1:';

/**
 * Crypto-shredding. Each user's personal data is encrypted (AES-256-GCM) with a key of
 * their own before it enters the event log; the key is kept, wrapped by the master key, in
 * identity_data_keys, outside the log. Deleting the account destroys the key: the log keeps
 * its events (and its integrity) but their personal fields can no longer be read by anyone.
 *
 * Unique values (email, username) are claimed as blind indexes (HMAC under the master key),
 * so the uniqueness table holds no readable personal data either.
 */
export class PersonalDataVault {
  private readonly cache = new Map<string, { key: Buffer | null; until: number }>();

  constructor(
    private readonly pool: Pool,
    private readonly masterKey: Buffer,
    /** Other instances may destroy a key: cached keys are re-read after this long. */
    private readonly cacheMs = 30_000,
  ) {}

  /** Makes the user's key, if they have none yet. */
  async createKey(userId: string): Promise<void> {
    const key = randomBytes(32);
    await this.pool.query('INSERT INTO identity_data_keys (user_id, wrapped_key) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
      userId,
      seal(this.masterKey, key),
    ]);
    this.cache.delete(userId);
  }

  /** Destroys the key: everything encrypted with it is unreadable from now on. */
  async destroyKey(userId: string): Promise<void> {
    await this.pool.query('DELETE FROM identity_data_keys WHERE user_id = $1', [userId]);
    this.cache.set(userId, { key: null, until: Date.now() + this.cacheMs });
  }

  async encrypt(userId: string, value: string): Promise<string> {
    const key = await this.key(userId);
    if (!key) throw new Error(`no personal-data key for ${userId}`);
    return PREFIX + seal(key, Buffer.from(value, 'utf8')).toString('base64');
  }

  /** The plaintext, or null once the key is destroyed. Values not encrypted pass through. */
  async decrypt(userId: string, value: string): Promise<string | null> {
    if (!value.startsWith(PREFIX)) return value;
    const key = await this.key(userId);
    if (!key) return null;
    return open(key, Buffer.from(value.slice(PREFIX.length), 'base64')).toString('utf8');
  }

  /** Encrypts the named fields of `data` (strings only; null stays null). */
  async encryptFields<T extends object>(userId: string, data: T, fields: readonly string[]): Promise<T> {
    const copy = { ...data } as Record<string, unknown>;
    for (const field of fields) {
      if (typeof copy[field] === 'string') copy[field] = await this.encrypt(userId, copy[field] as string);
    }
    return copy as T;
  }

  async decryptFields<T extends object>(userId: string, data: T, fields: readonly string[]): Promise<T> {
    const copy = { ...data } as Record<string, unknown>;
    for (const field of fields) {
      if (typeof copy[field] === 'string') copy[field] = await this.decrypt(userId, copy[field] as string);
    }
    return copy as T;
  }

  /** A stable, unreadable stand-in for a unique value, for the uniqueness index. */
  blindIndex(scope: string, value: string): string {
    return createHmac('sha256', this.masterKey).update(`${scope}\u0000${value}`).digest('base64url');
  }

  private async key(userId: string): Promise<Buffer | null> {
    const cached = this.cache.get(userId);
    if (cached && cached.until > Date.now()) return cached.key;
    const { rows } = await this.pool.query<{ wrapped_key: Buffer }>('SELECT wrapped_key FROM identity_data_keys WHERE user_id = $1', [
      userId,
    ]);
    const key = rows[0] ? open(this.masterKey, rows[0].wrapped_key) : null;
    this.cache.set(userId, { key, until: Date.now() + this.cacheMs });
    return key;
  }
}

/** AES-256-GCM: 12-byte iv | 16-byte tag | ciphertext. */
function seal(key: Buffer, plaintext: Buffer): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

function open(key: Buffer, sealed: Buffer): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
  decipher.setAuthTag(sealed.subarray(12, 28));
  return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]);
}
