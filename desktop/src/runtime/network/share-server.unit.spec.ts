import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EntitlementDocument, HostState } from '@meshwork/contracts';
import { DEFAULT_SHARE_BYTES_PER_SECOND, type ShareHost, ShareServer, shareRate, TokenBucket } from './share-server';

/** The host's side of the share transfer: what it refuses, and how fast it lets bytes go. */
describe('the share server', () => {
  let root: string;
  const block = randomBytes(3000);
  const manifest = JSON.stringify({
    model_id: '00000000-0000-4000-8000-000000000000',
    name: 'smol',
    display_name: 'Smol',
    version: '1.0.0',
    total_size: block.length,
    files: [
      {
        name: 'block-0.onnx',
        size: block.length,
        sha256: createHash('sha256').update(block).digest('hex'),
        part_index: 0,
        download_path: '/x',
      },
    ],
  });
  /** A host with the package installed, serving under a document that allows smol 1.0.0, unless a test changes these. */
  let serving: HostState['serving'];
  let allowed: { name: string; version: string }[];
  let installed: string | null;
  const host: ShareHost = {
    serving: () => serving,
    get entitlements() {
      return { models: allowed } as unknown as EntitlementDocument;
    },
    models: { pathOf: (name) => (name === 'smol' ? installed : null) },
  };
  let network: string | null;
  const server = () => new ShareServer(host, () => network, new TokenBucket(1e9, 1e9));
  const fetch = (fields: Partial<{ model: string; version: string; file: string; offset: number; length: number }> = {}) =>
    server().answer({ type: 'fetch', id: 1, model: 'smol', version: '1.0.0', file: 'block-0.onnx', offset: 0, length: 1000, ...fields });

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'share-server-'));
    await mkdir(join(root, 'smol', '1.0.0'), { recursive: true });
    await writeFile(join(root, 'smol', '1.0.0', 'block-0.onnx'), block);
    await writeFile(join(root, 'smol', '1.0.0', 'manifest.json'), manifest);
    await writeFile(join(root, 'smol', '1.0.0', 'secret.txt'), 'not in the package');
  });
  beforeEach(() => {
    serving = { allowed: true, reason: null };
    allowed = [{ name: 'smol', version: '1.0.0' }];
    installed = join(root, 'smol', '1.0.0');
    network = 'smol';
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('answers the bytes asked for, the end of a file short, and the catalog manifest itself', async () => {
    expect(await fetch({ offset: 100, length: 1000 })).toEqual({ error: null, payload: block.subarray(100, 1100) });
    expect((await fetch({ offset: 2500, length: 1000 })).payload).toEqual(block.subarray(2500));
    expect(await fetch({ file: 'manifest.json', length: 1_000_000 })).toEqual({ error: null, payload: Buffer.from(manifest) });
  });

  it('refuses another model, another version, a plan that stopped serving or no longer allows it, and files outside the package', async () => {
    const refused = async (message: string | RegExp) =>
      expect((await fetch()).error).toEqual({ kind: 'refused', message: expect.stringMatching(message) as string });
    expect((await fetch({ model: 'other' })).error).toEqual({ kind: 'refused', message: 'This network runs smol, not other.' });
    expect((await fetch({ version: '0.9.0' })).error).toEqual({
      kind: 'refused',
      message: 'The plan allows smol 1.0.0, not 0.9.0.',
    });
    expect((await fetch({ file: 'secret.txt' })).error).toEqual({ kind: 'refused', message: 'secret.txt is not a file of smol 1.0.0.' });
    expect((await fetch({ offset: 3001 })).error).toEqual({
      kind: 'refused',
      message: 'block-0.onnx has 3000 bytes; there is nothing at 3001.',
    });
    allowed = [];
    await refused('The plan allows smol at no version, not 1.0.0.');
    allowed = [{ name: 'smol', version: '1.0.0' }];
    serving = { allowed: false, reason: { code: 'plan_expired', since: '2026-01-01' } };
    await refused(/since 2026-01-01 and its offline grace has ended/);
    serving = { allowed: true, reason: null };
    network = null;
    await refused('This network runs no model, not smol.');
  });

  it('says missing when the host does not have the package installed', async () => {
    installed = null;
    expect((await fetch()).error).toEqual({ kind: 'missing', message: 'This host does not have smol 1.0.0 installed.' });
  });

  it('bounds the rate: after a burst, bytes go at the rate set, in the order asked', async () => {
    const bucket = new TokenBucket(10 * 1024 * 1024, 1024 * 1024);
    const started = Date.now();
    const done: number[] = [];
    // 6 MiB at 10 MiB/s with 1 MiB at once: the last MiB may go after about half a second.
    await Promise.all(Array.from({ length: 6 }, (_, i) => bucket.take(1024 * 1024).then(() => done.push(i))));
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(480);
    expect(elapsed).toBeLessThan(1500);
    expect(done).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('takes its rate from MESHWORK_LAN_SHARE_BYTES_PER_SECOND, and says what is wrong with a bad one', () => {
    expect(shareRate({})).toBe(DEFAULT_SHARE_BYTES_PER_SECOND);
    expect(shareRate({ MESHWORK_LAN_SHARE_BYTES_PER_SECOND: '1048576' })).toBe(1048576);
    expect(() => shareRate({ MESHWORK_LAN_SHARE_BYTES_PER_SECOND: 'fast' })).toThrow(
      'MESHWORK_LAN_SHARE_BYTES_PER_SECOND must be a whole number of bytes a second, at least 1024 (it is "fast")',
    );
  });
});
