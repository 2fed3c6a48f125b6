/**
 * The capped stage on a disk too small to hold a package's copies side by side (the object store
 * and the host are on this one machine): the packing scratch goes file by file as the upload sends
 * it, and the object store's copy file by file as the host finishes downloading it. The disk then
 * holds at most about one copy and a file, until the members' shares join the host's copy.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { UploadResponse } from '@meshwork/contracts';
import { registerAccount } from '@meshwork/testkit/api/accounts';
import type { NetworksWorld } from '@meshwork/testkit/api/network-kit';
import { minioClient } from '@meshwork/testkit/api/upload-kit';
import type { LanHost } from '@meshwork/testkit/desktop/lan-host';

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Uploads the package in `dir` as staff, as the console's multipart form does, removing each file
 * once its bytes are sent (the object store holds them then). Answers as the upload route does.
 */
export async function uploadConsuming(
  world: NetworksWorld,
  dir: string,
  model: { displayName: string; plans: string[] },
): Promise<{ name: string; id: string; files: { name: string; bytes: number }[] }> {
  const token = (await registerAccount(world.subject.app, 'benchstaff', randomUUID().slice(0, 8), true)).tokens.access;
  const names = (await readdir(dir)).filter((n) => !n.startsWith('.')).sort();
  const files = await Promise.all(
    names.map(async (name) => ({ name, bytes: (await stat(join(dir, name))).size, sha256: await sha256Of(join(dir, name)) })),
  );
  const boundary = `----meshworkbench${randomBytes(8).toString('hex')}`;
  const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const fields =
    field('name', `bench_${randomUUID().slice(0, 8)}`) +
    field('display_name', model.displayName) +
    field('version', '1.0.0') +
    field('allowed_plans', JSON.stringify(model.plans)) +
    field('checksums', JSON.stringify(Object.fromEntries(files.map((f) => [f.name, f.sha256]))));
  const heads = files.map(
    (f) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${f.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = `--${boundary}--\r\n`;
  const length =
    Buffer.byteLength(fields) + files.reduce((sum, f, i) => sum + Buffer.byteLength(heads[i]!) + f.bytes + 2, 0) + Buffer.byteLength(tail);
  const url = new URL(`${world.base}/api/v1/models/admin/upload/`);
  const upload = request(url, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': length },
  });
  const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
    upload.once('error', reject);
    upload.once('response', (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (c: string) => (body += c));
      response.once('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
  });
  const write = (text: string) =>
    new Promise<void>((resolve, reject) => upload.write(text, (error) => (error ? reject(error) : resolve())));
  await write(fields);
  for (const [i, file] of files.entries()) {
    await write(heads[i]!);
    await pipeline(createReadStream(join(dir, file.name)), upload, { end: false });
    await rm(join(dir, file.name));
    await write('\r\n');
  }
  upload.end(tail);
  const { status, body } = await answered;
  if (status !== 201) throw new Error(`upload answered ${status}: ${body}`);
  const uploaded = JSON.parse(body) as UploadResponse;
  return { name: uploaded.model_name, id: uploaded.model_id, files: files.map(({ name, bytes }) => ({ name, bytes })) };
}

/**
 * Has `host` download the model and removes each file's object as soon as the host has moved past
 * it (the host takes the files one at a time, in the manifest's part order).
 */
export async function downloadConsuming(
  host: LanHost,
  modelId: string,
  modelName: string,
  files: { name: string; size: number; part_index: number }[],
  bucket: string, // the world's test app's (world.subject.bucket)
) {
  const storage = minioClient();
  const ordered = [...files].sort((a, b) => a.part_index - b.part_index);
  let removed = 0;
  let through = 0; // bytes of the files removed so far
  await host.call('POST', '/host/models/download', { name: modelName });
  await host.until(
    (s) => {
      const model = s.models.find((m) => m.name === modelName);
      const installed = model?.status === 'installed';
      // Past a file's last byte (strictly: at its end the host may still be checking it).
      while (removed < ordered.length && (installed || (model?.bytes_done ?? 0) > through + ordered[removed]!.size)) {
        const file = ordered[removed++]!;
        through += file.size;
        // The stage's cleanup checks every object went.
        storage.removeObject(bucket, `models/${modelId}/${file.name}`).catch(() => undefined);
      }
      if (model?.status === 'failed') throw new Error(`the host's download failed: ${JSON.stringify(model.error)}`);
      return installed;
    },
    1_800_000,
    'the model installed',
  );
}
