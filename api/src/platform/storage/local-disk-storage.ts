import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isUuid } from '@meshwork/contracts';
import { type ComponentHealth, probe } from '../health/component-health';
import { LOCAL_STORAGE_ROUTE, type ObjectStorage, type StoredPart } from './object-storage';

/**
 * Objects as files under `root`, for embedded mode. Signed URLs point at this api
 * (LOCAL_STORAGE_ROUTE), carrying an HMAC of what they allow and until when.
 */
export class LocalDiskStorage implements ObjectStorage {
  constructor(
    readonly root: string,
    private readonly signingKey: Buffer,
    private readonly publicUrl: string,
  ) {}

  async health(): Promise<ComponentHealth> {
    const result = await probe(async () => {
      await fs.mkdir(this.root, { recursive: true });
      await fs.access(this.root, fs.constants.W_OK);
    });
    return { status: result.up ? 'up' : 'down', required: true, mode: 'local-disk', path: this.root, detail: result.detail };
  }

  /** The file of a key; keys are our own, but nothing may escape the root all the same. */
  pathOf(key: string): string {
    const file = path.resolve(this.root, key);
    if (!file.startsWith(path.resolve(this.root) + path.sep)) throw new Error(`bad object key ${key}`);
    return file;
  }

  async put(key: string, body: Readable): Promise<void> {
    const file = this.pathOf(key);
    const partial = `${file}.${randomUUID()}.partial`;
    try {
      await fs.mkdir(path.dirname(file), { recursive: true });
      await pipeline(body, createWriteStream(partial));
      await fs.rename(partial, file);
    } catch (error) {
      body.destroy();
      await fs.rm(partial, { force: true });
      throw error;
    }
  }

  /** Written aside, read-only, then hard-linked into place: link() fails if the file exists, atomically. */
  async putOnce(key: string, bytes: Buffer): Promise<boolean> {
    const file = this.pathOf(key);
    const partial = `${file}.${randomUUID()}.partial`;
    try {
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(partial, bytes, { mode: 0o444 });
      await fs.link(partial, file);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    } finally {
      await fs.rm(partial, { force: true });
    }
  }

  async size(key: string): Promise<number | null> {
    const stat = await fs.stat(this.pathOf(key)).catch(() => null);
    return stat?.size ?? null;
  }

  async read(key: string): Promise<Readable> {
    return createReadStream(this.pathOf(key));
  }

  async remove(keys: string[]): Promise<void> {
    for (const key of keys) {
      await fs.rm(this.pathOf(key), { force: true });
      await fs.rm(this.pathOf(`.multipart/${key}`), { recursive: true, force: true });
    }
  }

  async downloadUrl(key: string, seconds: number, fileName: string): Promise<string> {
    return this.signedUrl('objects', { key, name: fileName }, seconds);
  }

  async startMultipart(key: string): Promise<string> {
    const uploadId = randomUUID();
    await fs.mkdir(this.partsDir(key, uploadId), { recursive: true });
    return uploadId;
  }

  async partUrl(key: string, uploadId: string, part: number, seconds: number): Promise<string> {
    return this.signedUrl('parts', { key, uploadId, part: String(part) }, seconds);
  }

  /** Writes one part (the api's PUT handler for `partUrl`). */
  async putPart(key: string, uploadId: string, part: number, body: Readable): Promise<void> {
    const dir = this.partsDir(key, uploadId);
    await fs.access(dir); // the upload must exist
    const partial = path.join(dir, `${part}.${randomUUID()}.partial`);
    try {
      await pipeline(body, createWriteStream(partial));
      await fs.rename(partial, path.join(dir, String(part)));
    } catch (error) {
      await fs.rm(partial, { force: true });
      throw error;
    }
  }

  async listParts(key: string, uploadId: string): Promise<StoredPart[]> {
    const dir = this.partsDir(key, uploadId);
    const names = (await fs.readdir(dir).catch(() => [])).filter((n) => /^\d+$/.test(n));
    const parts = await Promise.all(
      names.map(async (name) => ({ part: Number(name), etag: name, size: (await fs.stat(path.join(dir, name))).size })),
    );
    return parts.sort((a, b) => a.part - b.part);
  }

  async completeMultipart(key: string, uploadId: string, parts: StoredPart[]): Promise<void> {
    const dir = this.partsDir(key, uploadId);
    const file = this.pathOf(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const partial = `${file}.${randomUUID()}.partial`;
    const out = createWriteStream(partial);
    try {
      for (const { part } of parts) await pipeline(createReadStream(path.join(dir, String(part))), out, { end: false });
      out.end();
      await new Promise<void>((resolve, reject) => out.once('finish', resolve).once('error', reject));
      await fs.rename(partial, file);
      await fs.rm(dir, { recursive: true, force: true });
    } catch (error) {
      out.destroy();
      await fs.rm(partial, { force: true });
      throw error;
    }
  }

  async abortMultipart(key: string, uploadId: string): Promise<void> {
    await fs.rm(this.partsDir(key, uploadId), { recursive: true, force: true });
  }

  /** The claims of a signed URL this storage made, if its signature holds and it has not expired. */
  verify(kind: 'objects' | 'parts', query: Record<string, unknown>, now = Date.now()): Record<string, string> | null {
    const { sig, ...claims } = Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)]));
    if (!sig || !claims.expires || Number(claims.expires) * 1000 < now) return null;
    const expected = this.sign(kind, claims);
    const given = Buffer.from(sig, 'base64url');
    return given.length === expected.length && timingSafeEqual(given, expected) ? claims : null;
  }

  private partsDir(key: string, uploadId: string): string {
    if (!isUuid(uploadId)) throw new Error('bad upload id');
    return this.pathOf(`.multipart/${key}/${uploadId}`);
  }

  private signedUrl(kind: 'objects' | 'parts', claims: Record<string, string>, seconds: number): string {
    const all = { ...claims, expires: String(Math.floor(Date.now() / 1000) + seconds) };
    const query = new URLSearchParams({ ...all, sig: this.sign(kind, all).toString('base64url') });
    return `${this.publicUrl}${LOCAL_STORAGE_ROUTE}/${kind}?${query}`;
  }

  private sign(kind: string, claims: Record<string, string>): Buffer {
    const canonical = Object.keys(claims)
      .sort()
      .map((k) => `${k}=${claims[k]}`)
      .join('&');
    return createHmac('sha256', this.signingKey).update(`${kind}?${canonical}`).digest();
  }
}
