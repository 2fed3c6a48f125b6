import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { Client } from 'minio';
import { type Relay, startRelay } from '../socket-relay.cjs';
export { minioClient, removeBucket } from './object-store.cjs';

/** Every object and unfinished multipart upload under `prefix` in `bucket` (a test app's: TestApp.bucket). */
export async function leftUnder(client: Client, bucket: string, prefix: string): Promise<string[]> {
  const names: string[] = [];
  if (!(await client.bucketExists(bucket))) return names;
  for await (const item of client.listObjectsV2(bucket, prefix, true)) names.push(String((item as { name?: string }).name));
  for await (const item of client.listIncompleteUploads(bucket, prefix, true)) names.push(`(incomplete) ${(item as { key: string }).key}`);
  return names;
}

export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** A multipart form as Node's fetch sends it, from text fields then files. */
export function uploadForm(fields: Record<string, string>, files: { name: string; data: Buffer }[]): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) form.append('files', new Blob([new Uint8Array(file.data)]), file.name);
  return form;
}

/**
 * Streams a multipart upload of one generated file of `size` bytes over a raw HTTP request,
 * calling `midway` once half is sent (to stop a server, or to drop the connection). Resolves
 * with the answer, or with 'dropped' when the connection was cut.
 */
export function streamUpload(options: {
  url: string;
  token: string;
  fields: Record<string, string>;
  fileName: string;
  size: number;
  midway?: (request: http.ClientRequest) => void;
}): Promise<{ status: number; body: Record<string, unknown> } | 'dropped'> {
  const boundary = `----meshwork${randomBytes(8).toString('hex')}`;
  const head =
    Object.entries(options.fields)
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('') +
    `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${options.fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const url = new URL(options.url);
  return new Promise((resolve) => {
    let settled = false;
    const done = (value: { status: number; body: Record<string, unknown> } | 'dropped') => {
      if (settled) return;
      settled = true;
      resolve(value);
    };
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          Authorization: `Bearer ${options.token}`,
          'Content-Type': `multipart/form-data; boundary=${boundary}`,
          'Content-Length': Buffer.byteLength(head) + options.size + Buffer.byteLength(tail),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (c: Buffer) => chunks.push(c));
        response.on('end', () => done({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString() || '{}') }));
        response.on('error', () => done('dropped'));
      },
    );
    request.on('error', () => done('dropped'));
    const chunk = randomBytes(1024 * 1024);
    let sent = 0;
    let calledMidway = false;
    request.write(head);
    const pump = () => {
      while (sent < options.size && !request.destroyed) {
        if (!calledMidway && sent >= options.size / 2 && options.midway) {
          calledMidway = true;
          options.midway(request);
          if (request.destroyed) return;
        }
        const piece = chunk.subarray(0, Math.min(chunk.length, options.size - sent));
        sent += piece.length;
        if (!request.write(piece)) return void request.once('drain', pump);
      }
      if (!request.destroyed) request.end(tail);
    };
    pump();
  });
}

/**
 * A relay in front of MinIO: an api pointed at `url` loses its storage, mid-request, when the
 * relay is cut (`cut()`, `restore()`, `close()`), as if MinIO had stopped, while every other
 * test keeps using MinIO.
 */
export async function storageProxy(target: URL): Promise<Relay & { url: string }> {
  const relay = await startRelay('127.0.0.1:0', target.host);
  return Object.assign(relay, { url: `http://127.0.0.1:${relay.port}` });
}
