import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rm, stat } from 'node:fs/promises';
import type { z } from 'zod';
import { DownloadLink } from '@meshwork/contracts';

/** A file that came down whole but is not the file the manifest names. */
export class ChecksumMismatch extends Error {}

/** The SHA-256 of the first `bytes` bytes of `path`, as a hash more bytes can be added to (a resumed file). */
export async function hashOf(path: string, bytes: number): Promise<Hash> {
  const hash = createHash('sha256');
  if (bytes === 0) return hash;
  for await (const chunk of createReadStream(path, { start: 0, end: bytes - 1 })) hash.update(chunk as Buffer);
  return hash;
}

const sizeOf = (path: string) =>
  stat(path).then(
    (s) => s.size,
    () => 0,
  );

/**
 * Downloads `url` into `path`, resuming from the bytes already there with an HTTP Range request
 * (a server that ignores the range sends the whole file, which replaces them), and checks the
 * SHA-256 of the whole file before it counts. `progress` hears every chunk's size; `activity`
 * hears when it reads back the bytes already there (a large file takes a while) and when it downloads.
 */
export async function downloadFile(
  url: string,
  path: string,
  expected: { size: number; sha256: string },
  progress: (bytes: number) => void,
  signal: AbortSignal,
  activity: (now: 'verifying' | 'downloading') => void = () => undefined,
): Promise<void> {
  let offset = await sizeOf(path);
  if (offset > expected.size) {
    await rm(path, { force: true });
    offset = 0;
  }
  if (offset > 0) activity('verifying');
  const hash = await hashOf(path, offset);
  if (offset < expected.size) {
    activity('downloading');
    const response = await fetch(url, { headers: offset > 0 ? { Range: `bytes=${offset}-` } : {}, signal });
    if (response.status !== 200 && response.status !== 206) throw new Error(`The download answered HTTP ${response.status}`);
    const resumed = response.status === 206;
    const file = await open(path, resumed ? 'a' : 'w', 0o600);
    const fresh = resumed ? hash : createHash('sha256');
    if (!resumed) progress(-offset); // the bytes counted before are being replaced
    let received = resumed ? offset : 0;
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        received += chunk.length;
        if (received > expected.size) throw new ChecksumMismatch('The server sent more bytes than the manifest lists');
        fresh.update(chunk);
        await file.write(chunk);
        progress(chunk.length);
      }
      await file.sync();
    } finally {
      await file.close();
    }
    if (received !== expected.size) throw new Error(`The download ended after ${received} of ${expected.size} bytes`);
    return check(fresh, path, expected.sha256);
  }
  return check(hash, path, expected.sha256);
}

async function check(hash: Hash, path: string, sha256: string): Promise<void> {
  if (hash.digest('hex') === sha256.toLowerCase()) return;
  await rm(path, { force: true });
  throw new ChecksumMismatch(`${path.split(/[\\/]/).pop()} does not match its SHA-256`);
}

/** The api path of a model's catalog manifest (its SHA-256 is the signed document's `manifest_sha256`). */
export const manifestPathOf = (model: string) => `/models/${encodeURIComponent(model)}/manifest/`;

/**
 * One file of a model package from the platform: a fresh presigned link (each one is recorded
 * as a download), then `downloadFile`. A resumed file that fails its check is fetched once more
 * from the start (`restarted` hears it, to take its bytes off the progress).
 */
export async function downloadPackageFile(
  api: { request<S extends z.ZodType>(path: string, options: { schema: S }): Promise<z.output<S>> },
  model: string,
  file: { name: string; size: number; sha256: string },
  path: string,
  progress: (bytes: number) => void,
  signal: AbortSignal,
  activity?: (now: 'verifying' | 'downloading') => void,
  restarted: () => void = () => undefined,
): Promise<void> {
  const link = `/models/${encodeURIComponent(model)}/files/${encodeURIComponent(file.name)}/download/`;
  const fetchOnce = async () => {
    const { url } = await api.request(link, { schema: DownloadLink });
    await downloadFile(url, path, file, progress, signal, activity);
  };
  await fetchOnce().catch(async (error: Error) => {
    if (!(error instanceof ChecksumMismatch)) throw error;
    restarted();
    await fetchOnce();
  });
}
