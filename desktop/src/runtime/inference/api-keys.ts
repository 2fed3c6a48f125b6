import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import type { CreatedHostApiKey, HostApiKey } from '@meshwork/contracts';
import { JsonFile } from '../platform/json-file';

const StoredKey = z.object({ id: z.string(), name: z.string(), prefix: z.string(), sha256: z.string(), created_at: z.string() });
const KeyFile = z.object({ keys: z.array(StoredKey) });

const digest = (key: string) => createHash('sha256').update(key).digest();

/**
 * The keys of the host's OpenAI-compatible api. Only each key's SHA-256 is kept (the key is shown
 * once, when created), so a copy of the data directory lets nobody in.
 */
export class ApiKeyStore {
  private readonly file: JsonFile<typeof KeyFile>;

  constructor(dataDir: string) {
    this.file = new JsonFile(join(dataDir, 'api-keys.json'), KeyFile);
  }

  async list(): Promise<HostApiKey[]> {
    return ((await this.file.read())?.keys ?? []).map(({ id, name, prefix, created_at }) => ({ id, name, prefix, created_at }));
  }

  async create(name: string): Promise<CreatedHostApiKey> {
    const key = `mw-${randomBytes(32).toString('base64url')}`;
    const record = {
      id: randomUUID(),
      name,
      prefix: key.slice(0, 7),
      sha256: digest(key).toString('hex'),
      created_at: new Date().toISOString(),
    };
    const keys = (await this.file.read())?.keys ?? [];
    await this.file.write({ keys: [...keys, record] });
    return { id: record.id, name, prefix: record.prefix, created_at: record.created_at, key };
  }

  /** Answers whether a key was revoked (false when there was none with that id). */
  async revoke(id: string): Promise<boolean> {
    const keys = (await this.file.read())?.keys ?? [];
    const kept = keys.filter((k) => k.id !== id);
    if (kept.length === keys.length) return false;
    await this.file.write({ keys: kept });
    return true;
  }

  /** The id of the key presented, or null. */
  async verify(presented: string): Promise<string | null> {
    const given = digest(presented);
    const keys = (await this.file.read())?.keys ?? [];
    return keys.find((k) => timingSafeEqual(Buffer.from(k.sha256, 'hex'), given))?.id ?? null;
  }
}
