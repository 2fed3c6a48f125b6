import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../config/config';
import { LocalDiskStorage } from '../../storage/local-disk-storage';
import type { ObjectStorage } from '../../storage/object-storage';
import { objectStorageFor } from '../../storage/object-storage.factory';
import { required } from '@meshwork/testkit/infra';
import type { Seal } from './log-chain';
import { anchorKey, anchorMatches, readAnchor, writeAnchor } from './seal-anchor';

const seal = (over: Partial<Seal> = {}): Seal => ({
  seq: 1,
  position: 42,
  hash: Buffer.alloc(32, 1),
  signature: Buffer.alloc(32, 2),
  format: 2,
  ...over,
});

/** Both stores the api runs on: MinIO (full mode) and a folder (embedded mode). */
describe.each([
  [
    'MinIO',
    async () =>
      objectStorageFor(
        loadConfig({
          DATABASE_URL: required('DATABASE_URL'),
          S3_ENDPOINT: required('S3_ENDPOINT'),
          S3_ACCESS_KEY: required('S3_ACCESS_KEY'),
          S3_SECRET_KEY: required('S3_SECRET_KEY'),
        }),
        Buffer.alloc(32),
      ),
  ],
  ['local disk', async () => new LocalDiskStorage(await mkdtemp(path.join(os.tmpdir(), 'anchors-')), Buffer.alloc(32), 'http://127.0.0.1')],
])('seal anchors on %s: written once, read back, never replaced', (_name, open) => {
  let storage: ObjectStorage;
  const log = randomUUID();
  beforeAll(async () => {
    storage = await open();
  });
  afterAll(async () => {
    await storage.remove([anchorKey(log, 1), anchorKey(log, 2)]);
    if (storage instanceof LocalDiskStorage) await rm(storage.root, { recursive: true, force: true });
  });

  it('reads back what was written, and nothing for a seal never anchored', async () => {
    expect(await readAnchor(storage, log, 1)).toBeNull();
    await writeAnchor(storage, log, seal());
    const anchor = await readAnchor(storage, log, 1);
    expect(anchor && anchorMatches(anchor, seal())).toBe(true);
    expect(anchor && anchorMatches(anchor, seal({ position: 43 }))).toBe(false);
  });

  it('accepts the same anchor again (a retry) but never replaces it with a different one', async () => {
    await writeAnchor(storage, log, seal());
    await expect(writeAnchor(storage, log, seal({ hash: Buffer.alloc(32, 9) }))).rejects.toThrow(/different anchor for seal 1/);
    expect(await storage.putOnce(anchorKey(log, 1), Buffer.from('forged'))).toBe(false);
    const anchor = await readAnchor(storage, log, 1);
    expect(anchor && anchorMatches(anchor, seal())).toBe(true);
  });

  it('reads an unreadable anchor as one that matches no seal', async () => {
    if (storage instanceof LocalDiskStorage) await writeFile(storage.pathOf(anchorKey(log, 2)), 'not json');
    else expect(await storage.putOnce(anchorKey(log, 2), Buffer.from('not json'))).toBe(true);
    const anchor = await readAnchor(storage, log, 2);
    expect(anchor).not.toBeNull();
    expect(anchorMatches(anchor!, seal({ seq: 2 }))).toBe(false);
  });
});
