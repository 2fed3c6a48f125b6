import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, openAsBlob } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { NetworksWorld } from '../api/network-kit';

/**
 * Uploads the packed package in `directory` as staff would, for the plans given, under a fresh
 * name (`<stem>_<8 hex>`). Files go as file-backed blobs and are hashed as streams, so a package
 * of hundreds of MB is never held in memory.
 */
export async function uploadPackage(
  world: Pick<NetworksWorld, 'upload'>,
  directory: string,
  model: { stem: string; displayName: string; plans: string[] },
): Promise<{ name: string; id: string; files: { name: string; bytes: number }[] }> {
  const names = (await readdir(directory)).filter((name) => !name.startsWith('.')).sort();
  const form = new FormData();
  const checksums: Record<string, string> = {};
  for (const name of names) checksums[name] = await fileSha256(join(directory, name));
  form.append('name', `${model.stem}_${randomUUID().slice(0, 8)}`);
  form.append('display_name', model.displayName);
  form.append('version', '1.0.0');
  form.append('allowed_plans', JSON.stringify(model.plans));
  form.append('checksums', JSON.stringify(checksums));
  const files: { name: string; bytes: number }[] = [];
  for (const name of names) {
    const blob = await openAsBlob(join(directory, name));
    files.push({ name, bytes: blob.size });
    form.append('files', blob, name);
  }
  const uploaded = await world.upload(form);
  return { name: uploaded.model_name, id: uploaded.model_id, files };
}

/** A file's SHA-256, streamed. */
export async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
