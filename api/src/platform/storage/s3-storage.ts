import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import type { Client } from 'minio';
import { type ComponentHealth, probe } from '../health/component-health';
import { closedUnderneath } from '../http/kept-connection';
import type { ObjectStorage, StoredPart } from './object-storage';

/** The minio client's multipart calls that its typings keep protected or internal. */
type MultipartClient = Client & {
  initiateNewMultipartUpload(bucket: string, key: string, headers: Record<string, string>): Promise<string>;
  listParts(bucket: string, key: string, uploadId: string): Promise<{ part: number; etag: string; size: number }[]>;
};

/** Objects in an S3 bucket (MinIO in full mode), through the minio client; the bucket is made on first use. */
export class S3Storage implements ObjectStorage {
  /**
   * Size of the parts `put` sends: S3 wants at least 5 MiB (but for the last) and at most
   * 10,000 parts, so 8 MiB carries files up to 78 GiB with two parts in memory.
   */
  static readonly PART_BYTES = 8 * 1024 * 1024;
  private bucketReady: Promise<void> | null = null;
  /**
   * Connections to storage kept open between parts, and closed after 5 s idle (as Node's own
   * agent does): MinIO closes an idle connection after 30 s without saying so beforehand, and
   * a part sent on it as it closes fails.
   */
  private readonly agents = {
    'http:': new http.Agent({ keepAlive: true, timeout: 5_000 }),
    'https:': new https.Agent({ keepAlive: true, timeout: 5_000 }),
  };

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

  /**
   * PUTs one part. A connection kept from an earlier part that the server closed just as this
   * one was sent fails before any answer; the part is then sent once more on a new connection
   * (sending a part again replaces it, so this is safe).
   */
  private async sendPart(key: string, uploadId: string, part: number, bytes: Buffer): Promise<StoredPart> {
    const url = new URL(await this.partUrl(key, uploadId, part, 15 * 60));
    try {
      return await this.putPart(url, part, bytes, this.agents[url.protocol === 'https:' ? 'https:' : 'http:']);
    } catch (error) {
      if (!(error instanceof ClosedUnderneath)) throw error;
      return this.putPart(url, part, bytes, false);
    }
  }

  private putPart(url: URL, part: number, bytes: Buffer, agent: http.Agent | false): Promise<StoredPart> {
    return new Promise((resolve, reject) => {
      const request = (url.protocol === 'https:' ? https : http)
        .request(url, { method: 'PUT', agent, headers: { 'Content-Length': bytes.length }, timeout: 60_000 }, (response) => {
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
        })
        .on('timeout', () => request.destroy(new Error(`storage did not answer part ${part} within 60 s`)))
        .on('error', (error: NodeJS.ErrnoException) => reject(closedUnderneath(request, error) ? new ClosedUnderneath(error) : error));
      request.end(bytes);
    });
  }

  /** One PUT with `If-None-Match: *`: S3 (and MinIO) refuse it with 412 when the key exists, atomically. */
  async putOnce(key: string, bytes: Buffer): Promise<boolean> {
    await this.ensureBucket();
    try {
      await this.client.putObject(this.bucket, key, bytes, bytes.length, { 'If-None-Match': '*' });
      return true;
    } catch (error) {
      if ((error as { code?: string }).code === 'PreconditionFailed') return false;
      throw error;
    }
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

/** A part failed on a kept connection the server had closed (`closedUnderneath`). */
class ClosedUnderneath extends Error {
  constructor(override readonly cause: Error) {
    super(`a kept connection to storage was closed: ${cause.message}`);
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
