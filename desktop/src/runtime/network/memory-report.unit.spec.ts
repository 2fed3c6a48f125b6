/**
 * @jest-environment ./desktop/testing/native-arrays.environment.cjs
 *
 * The memory a device reports: the kernel's figures, and a real block worker (onnxruntime on a tiny packed llama).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LanShareReport } from '@meshwork/contracts';
import { tinyLlamaGguf } from '@meshwork/testkit/desktop/tiny-llama';
import { packModel } from '../../pack/packer';
import { GgmlType } from '../../pack/quant';
import { BlockWorker } from './block-worker';
import { memoryReport, peakRssBytes } from './memory-report';

describe('the memory a device reports for its share', () => {
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'memory-report-'));
  });
  afterAll(() => rm(work, { recursive: true, force: true }));

  it('before any block loads: the process’s resident memory now and at most, no weights, the runtime as the fixed part', () => {
    const memory = memoryReport(null);
    expect(LanShareReport.shape.memory.parse(memory)).toEqual(memory);
    expect(memory.weights_bytes).toBe(0);
    // A Node process holds tens of MB; the peak is never below what it holds now.
    expect(memory.rss_bytes).toBeGreaterThan(10e6);
    expect(memory.peak_rss_bytes).toBeGreaterThanOrEqual(memory.rss_bytes);
    expect(memory.fixed_bytes).toBeGreaterThan(10e6);
  });

  it('reads the peak from the kernel’s high-water mark: never below what it was, nor below what the process holds', () => {
    const before = peakRssBytes();
    const touched = Buffer.alloc(256e6, 1); // every page written
    const held = process.memoryUsage.rss();
    const after = peakRssBytes();
    expect(after).toBeGreaterThanOrEqual(before);
    // Give or take 16 MB: the kernel raises its mark lazily (pages an allocator gives back with madvise
    // do not raise it first; CI saw it 24 KB below), so memoryReport reports the larger of the two.
    // Not "before + what was written": a collection on the way may give back more than that first.
    expect(after).toBeGreaterThanOrEqual(held - 16e6);
    expect(touched.length).toBe(256e6);
  });

  it('counts the held blocks’ graphs and weights, and the runtime before the first load plus the caches held as fixed', async () => {
    const gguf = join(work, 'tiny.gguf');
    await writeFile(gguf, tinyLlamaGguf({ matrices: GgmlType.Q4_0 }));
    const manifest = await packModel({ gguf, out: join(work, 'package'), blocks: 2 });
    const worker = await BlockWorker.load(join(work, 'package'), 'tiny', '1.0.0', [0]);
    try {
      const runtime = BlockWorker.runtimeBytes!;
      expect(runtime).toBeGreaterThan(10e6);
      const loaded = memoryReport(worker);
      expect(loaded.weights_bytes).toBe(manifest.blocks[0]!.bytes + manifest.blocks[0]!.weights.bytes);
      expect(loaded.fixed_bytes).toBe(runtime);

      await worker.forward(7, 0, 0, 1, BigInt64Array.of(1n, 2n, 3n), 3);
      expect(worker.cacheBytes).toBeGreaterThan(0);
      expect(memoryReport(worker).fixed_bytes).toBe(runtime + worker.cacheBytes);
      worker.release(7); // a conversation's cache goes with it
      expect(memoryReport(worker).fixed_bytes).toBe(runtime);
    } finally {
      await worker.close();
    }
  });
});
