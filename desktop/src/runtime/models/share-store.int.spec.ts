/**
 * A member's share on disk, against a real packed model: a reassignment fetches only the files it
 * lacks and prunes the ones it no longer needs, a cut transfer resumes from the bytes kept, and
 * a host whose bytes or manifest are not the plan's is never believed. The host is read through
 * the same `HostFiles` the LAN link serves (share-transfer.int.spec.ts runs it over TLS).
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModelManifest, ModelPackageManifest } from '@meshwork/contracts';
import { tinyLlamaGguf } from '@meshwork/testkit/desktop/tiny-llama';
import { packModel } from '../../pack/packer';
import { GgmlType } from '../../pack/quant';
import { CATALOG_MANIFEST, type HostFiles, ShareStore, type ShareSources, shareFiles } from './share-store';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('a member’s share of a model', () => {
  let work: string;
  let packageDir: string;
  let manifest: ModelPackageManifest;
  let catalogText: string;
  /** Bytes the host served, per file. */
  const served = new Map<string, number>();
  /** Files the host answers wrongly (one byte flipped). */
  const corrupt = new Set<string>();

  const host: HostFiles = {
    async read(file, offset, length) {
      const bytes = Buffer.from(await readFile(join(packageDir, file))).subarray(offset, offset + length);
      if (corrupt.has(file) && bytes.length > 0) bytes[0]! ^= 0xff;
      served.set(file, (served.get(file) ?? 0) + bytes.length);
      return bytes;
    },
  };
  /** The platform, which these tests never reach: a file that falls back to it fails with this. */
  const noPlatform = {
    request: () => Promise.reject(new Error('the platform is not reachable')),
    requestText: () => Promise.reject(new Error('the platform is not reachable')),
  } as unknown as ShareSources['api'];
  const sources = (manifestSha256 = sha256(Buffer.from(catalogText))): ShareSources => ({
    api: noPlatform,
    manifestSha256,
    host,
    signal: new AbortController().signal,
    progress: () => undefined,
    log: () => undefined,
  });
  const blockFiles = (index: number) => [manifest.blocks[index]!.file, manifest.blocks[index]!.weights.file];

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'share-store-'));
    packageDir = join(work, 'package');
    const gguf = join(work, 'tiny.gguf');
    await writeFile(gguf, tinyLlamaGguf({ matrices: GgmlType.Q4_0 }));
    manifest = await packModel({ gguf, out: packageDir, blocks: 3 });
    // The catalog's manifest, as the api lists an uploaded package and the host keeps it beside the package.
    const names = (await readdir(packageDir)).sort();
    const files = await Promise.all(
      names.map(async (name, i) => {
        const bytes = await readFile(join(packageDir, name));
        return { name, size: bytes.length, sha256: sha256(bytes), part_index: i, download_path: `/files/${name}` };
      }),
    );
    const catalog: ModelManifest = {
      model_id: '0b8f5a52-4c1e-4a43-9a8c-2f1f3d5b7c11',
      name: 'tiny',
      display_name: 'Tiny',
      version: '1.0.0',
      total_size: files.reduce((sum, f) => sum + f.size, 0),
      files,
    };
    catalogText = JSON.stringify(catalog);
    await writeFile(join(packageDir, CATALOG_MANIFEST), catalogText);
  });
  afterAll(() => rm(work, { recursive: true, force: true }));

  it('holds only its blocks’ files, fetches only what a reassignment adds, and prunes what it drops', async () => {
    const share = new ShareStore(join(work, 'member'), 'tiny', '1.0.0');
    await share.ensure([0], sources());
    expect((await readdir(share.directory)).sort()).toEqual([...shareFiles(manifest, [0]), CATALOG_MANIFEST, '.sources.json'].sort());
    expect((await share.report([0])).files.every((f) => f.source === 'lan')).toBe(true);

    served.clear();
    await share.ensure([0, 1], sources());
    // Block 0's files were there: only block 1's crossed the LAN.
    expect([...served.keys()].sort()).toEqual(blockFiles(1).sort());

    await share.prune([1]);
    const held = (await readdir(share.directory)).sort();
    expect(held).toEqual([...shareFiles(manifest, [1]), CATALOG_MANIFEST, '.sources.json'].sort());
    expect(held.some((name) => blockFiles(0).includes(name))).toBe(false);
    const report = await share.report([1]);
    expect(report.files.map((f) => f.name).sort()).toEqual(shareFiles(manifest, [1]).sort());
    // Disk follows the share: the folder's bytes, less than the package's.
    const bytesIn = async (dir: string, names: string[]) =>
      (await Promise.all(names.map((n) => stat(join(dir, n))))).reduce((sum, s) => sum + s.size, 0);
    expect(report.disk_bytes).toBe(await bytesIn(share.directory, held));
    expect(report.disk_bytes).toBeLessThan(await bytesIn(packageDir, await readdir(packageDir)));
  });

  it('resumes a cut transfer from the bytes it kept', async () => {
    const share = new ShareStore(join(work, 'resume'), 'tiny', '1.0.0');
    await share.ensure([2], sources());
    const weights = blockFiles(2)[1]!;
    const size = (await stat(join(share.directory, weights))).size;
    const kept = Math.floor(size / 2);
    await truncate(join(share.directory, weights), kept); // the transfer was cut here
    served.clear();
    await share.ensure([2], sources());
    expect(served.get(weights)).toBe(size - kept);
    expect(sha256(await readFile(join(share.directory, weights)))).toBe(sha256(await readFile(join(packageDir, weights))));
  });

  it('believes neither a host’s wrong bytes nor a manifest the plan does not name', async () => {
    const share = new ShareStore(join(work, 'hostile'), 'tiny', '1.0.0');
    corrupt.add(blockFiles(1)[1]!);
    try {
      // The host's bytes fail their check and the platform cannot be reached: the block is not held.
      await expect(share.ensure([1], sources())).rejects.toThrow(/platform is not reachable/);
      expect(await readdir(share.directory)).not.toContain(blockFiles(1)[1]);
      expect((await share.report([1])).files.map((f) => f.name)).not.toContain(blockFiles(1)[1]);
    } finally {
      corrupt.clear();
    }
    const stranger = new ShareStore(join(work, 'stranger'), 'tiny', '1.0.0');
    await expect(stranger.ensure([0], sources('0'.repeat(64)))).rejects.toThrow(/platform is not reachable/);
    expect(await readdir(stranger.directory)).toEqual([]);
  });
});
