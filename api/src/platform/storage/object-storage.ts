import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Client } from 'minio';
import type { AppConfig } from '../config/config';
import { type ComponentHealth, probe } from '../health/component-health';
import { isUuid } from '../../../../contracts/src/common/fields';

/** A part of a multipart upload that the storage holds. */
export interface StoredPart {
  part: number;
  etag: string;
  size: number;
}

/**
 * Where model files and installers live: S3 (MinIO) in full mode, a folder on local disk in
 * embedded mode. Writes stream, whatever the size; reads and large uploads go by short-lived
 * signed URLs (S3's own, or this api's for the local disk) so bytes need not pass through
 * the api, and downloads honour HTTP Range.
 */
export interface ObjectStorage {
  health(): Promise<ComponentHealth>;
  /**
   * Stores the stream under `key`; the stream's errors abort the write, and a failed write
   * destroys the stream, so whatever feeds it stops rather than waiting to be read.
   */
  put(key: string, body: Readable): Promise<void>;
  /** The object's size, or null when there is none. */
  size(key: string): Promise<number | null>;
  read(key: string): Promise<Readable>;
  /** Removes objects and any unfinished multipart uploads under them; missing ones are fine. */
  remove(keys: string[]): Promise<void>;
  /** A GET URL valid for `seconds`, answering Range requests, saving as `fileName`. */
  downloadUrl(key: string, seconds: number, fileName: string): Promise<string>;
  startMultipart(key: string): Promise<string>;
  /** A PUT URL for one part (numbered from 1), valid for `seconds`. */
  partUrl(key: string, uploadId: string, part: number, seconds: number): Promise<string>;
  listParts(key: string, uploadId: string): Promise<StoredPart[]>;
  completeMultipart(key: string, uploadId: string, parts: StoredPart[]): Promise<void>;
  abortMultipart(key: string, uploadId: string): Promise<void>;
}

export const OBJECT_STORAGE = Symbol('ObjectStorage');

/** Where the local-disk storage's signed URLs are answered (see storage.controller.ts). */
export const LOCAL_STORAGE_ROUTE = '/api/v1/storage';

export function objectStorageFor(config: AppConfig, signingKey: Buffer): ObjectStorage {
  if (!config.S3_ENDPOINT) return new LocalDiskStorage(path.join(config.dataDir, 'objects'), signingKey, config.publicUrl);
  const endpoint = new URL(config.S3_ENDPOINT);
  const client = new Client({
    endPoint: endpoint.hostname,
    port: Number(endpoint.port || (endpoint.protocol === 'https:' ? 443 : 80)),
    useSSL: endpoint.protocol === 'https:',
    accessKey: config.S3_ACCESS_KEY!,
    secretKey: config.S3_SECRET_KEY!,
    region: config.S3_REGION,
  });
  return new S3Storage(client, config.S3_BUCKET);
}

/** The minio client's multipart calls that its typings keep protected or internal. */
type MultipartClient = Client & {
  initiateNewMultipartUpload(bucket: string, key: string, headers: Record<string, string>): Promise<string>;
  listParts(bucket: string, key: string, uploadId: string): Promise<{ part: number; etag: string; size: number }[]>;
};

export class S3Storage implements ObjectStorage {
  /**
   * Size of the parts `put` sends: S3 wants at least 5 MiB (but for the last) and at most
   * 10,000 parts, so 8 MiB carries files up to 78 GiB with two parts in memory.
   */
  static readonly PART_BYTES = 8 * 1024 * 1024;
  private bucketReady: Promise<void> | null = null;
  /** Connections to storage kept open between parts. */
  private readonly agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };

  constructor(
    readonly client: Client,
    readonly bucket: string,
  ) {}

  async health(): Promise<ComponentHealth> {
    const result = await probe(async () => {
      await this.client.bucketExists(this.bucket);
    });
    return {
      status: result.up ? 'up' : 'down',
      required: true,
      mode: 's3',
      bucket: this.bucket,
      latencyMs: result.latencyMs,
      detail: result.detail,
    };
  }

  /**
   * A multipart upload of our own: each part goes by the same presigned part URL a browser
   * uses, so no second SHA-256 of the bytes is made to sign it, and from one of two
   * reused buffers, so the next part is received while one is sent and memory stays at two
   * parts whatever the size. Any error (the source's or storage's) aborts the upload, so
   * no parts linger.
   */
  async put(key: string, body: Readable): Promise<void> {
    let uploadId: string | null = null;
    let sending: Promise<StoredPart> | null = null;
    try {
      uploadId = await this.startMultipart(key);
      const parts: StoredPart[] = [];
      for await (const bytes of inParts(body, [
        Buffer.allocUnsafeSlow(S3Storage.PART_BYTES),
        Buffer.allocUnsafeSlow(S3Storage.PART_BYTES),
      ])) {
        // The part before this one must be sent before the generator refills its buffer.
        if (sending) parts.push(await sending);
        sending = this.sendPart(key, uploadId, parts.length + 1, bytes);
        sending.catch(() => undefined); // awaited below; an early failure is not unhandled meanwhile
      }
      if (sending) parts.push(await sending);
      if (parts.length === 0) {
        await this.abortMultipart(key, uploadId);
        await this.client.putObject(this.bucket, key, Buffer.alloc(0));
        return;
      }
      await this.completeMultipart(key, uploadId, parts);
    } catch (error) {
      body.destroy();
      await sending?.catch(() => undefined); // a part still in flight must not land after the abort
      if (uploadId) await this.abortMultipart(key, uploadId).catch(() => undefined); // storage down: the caller's sweeper retries
      throw error;
    }
  }

  private async sendPart(key: string, uploadId: string, part: number, bytes: Buffer): Promise<StoredPart> {
    const url = new URL(await this.partUrl(key, uploadId, part, 15 * 60));
    return new Promise((resolve, reject) => {
      const request = (url.protocol === 'https:' ? https : http)
        .request(
          url,
          {
            method: 'PUT',
            agent: this.agents[url.protocol === 'https:' ? 'https:' : 'http:'],
            headers: { 'Content-Length': bytes.length },
            timeout: 60_000,
          },
          (response) => {
            const answer: Buffer[] = [];
            response.on('data', (chunk: Buffer) => answer.push(chunk));
            response.on('error', reject);
            response.on('end', () => {
              const etag = response.headers.etag?.replace(/"/g, '');
              if (response.statusCode === 200 && etag) resolve({ part, etag, size: bytes.length });
              else
                reject(
                  new Error(`storage answered ${response.statusCode} to part ${part}: ${Buffer.concat(answer).toString().slice(0, 300)}`),
                );
            });
          },
        )
        .on('timeout', () => request.destroy(new Error(`storage did not answer part ${part} within 60 s`)))
        .on('error', reject);
      request.end(bytes);
    });
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await this.client.statObject(this.bucket, key)).size;
    } catch (error) {
      if ((error as { code?: string }).code === 'NotFound' || (error as { code?: string }).code === 'NoSuchKey') return null;
      throw error;
    }
  }

  read(key: string): Promise<Readable> {
    return this.client.getObject(this.bucket, key);
  }

  async remove(keys: string[]): Promise<void> {
    for (const key of keys) {
      // Answers an error when there is no unfinished upload; the object removal below is
      // what fails (and is retried by the caller) when storage is really unreachable.
      await this.client.removeIncompleteUpload(this.bucket, key).catch(() => undefined);
      await this.client.removeObject(this.bucket, key);
    }
  }

  downloadUrl(key: string, seconds: number, fileName: string): Promise<string> {
    return this.client.presignedGetObject(this.bucket, key, seconds, {
      'response-content-disposition': `attachment; filename="${fileName.replace(/"/g, '')}"`,
    });
  }

  async startMultipart(key: string): Promise<string> {
    await this.ensureBucket();
    return (this.client as MultipartClient).initiateNewMultipartUpload(this.bucket, key, {});
  }

  partUrl(key: string, uploadId: string, part: number, seconds: number): Promise<string> {
    return this.client.presignedUrl('PUT', this.bucket, key, seconds, { partNumber: String(part), uploadId });
  }

  async listParts(key: string, uploadId: string): Promise<StoredPart[]> {
    const parts = await (this.client as MultipartClient).listParts(this.bucket, key, uploadId);
    return parts.map(({ part, etag, size }) => ({ part, etag, size }));
  }

  async completeMultipart(key: string, uploadId: string, parts: StoredPart[]): Promise<void> {
    await this.client.completeMultipartUpload(
      this.bucket,
      key,
      uploadId,
      parts.map(({ part, etag }) => ({ part, etag })),
    );
  }

  abortMultipart(key: string, uploadId: string): Promise<void> {
    return this.client.abortMultipartUpload(this.bucket, key, uploadId);
  }

  private ensureBucket(): Promise<void> {
    this.bucketReady ??= (async () => {
      if (!(await this.client.bucketExists(this.bucket))) await this.client.makeBucket(this.bucket);
    })().catch((error: unknown) => {
      this.bucketReady = null;
      throw error;
    });
    return this.bucketReady;
  }
}

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

/**
 * The stream's bytes regrouped into parts of the buffers' size (the last one shorter),
 * filling the two buffers in turn: a part yielded is only overwritten two parts later.
 */
async function* inParts(source: Readable, buffers: [Buffer, Buffer]): AsyncGenerator<Buffer> {
  const size = buffers[0].length;
  let current = 0;
  let filled = 0;
  for await (const chunk of source) {
    for (let offset = 0; offset < (chunk as Buffer).length;) {
      const copied = (chunk as Buffer).copy(buffers[current]!, filled, offset);
      filled += copied;
      offset += copied;
      if (filled === size) {
        yield buffers[current]!;
        current ^= 1;
        filled = 0;
      }
    }
  }
  if (filled > 0) yield buffers[current]!.subarray(0, filled);
}
