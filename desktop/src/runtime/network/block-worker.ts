/**
 * The blocks of one model that this device runs for its network, and a key/value cache per
 * conversation (`seq`) for each of them. The host runs its share through one of these too, so
 * a block computes the same here or on a member.
 */
import type { ModelPackageManifest } from '@meshwork/contracts';
import { BlockRunner } from '../../engine/block-runner';
import type { KvCache } from '../../engine/kv-cache';
import { readManifest } from '../../engine/local-model';

/** Conversations whose caches a device keeps; the least recently used beyond this are dropped. */
const MAX_SEQUENCES = 32;

/**
 * A generous bound on creating one block's session: 10 s, plus its memory at 20 MB/s (a slow
 * disk, or a device paging while it packs the weights), at most 10 minutes.
 */
export function loadSeconds(memoryBytes: number): number {
  return Math.min(600, Math.ceil(10 + memoryBytes / 20e6));
}

/** The cache of a conversation is not there (dropped, or the device restarted): the host runs the conversation again. */
export class CacheMissing extends Error {}

export class BlockWorker {
  private readonly sequences = new Map<number, Map<number, KvCache>>();

  private constructor(
    readonly model: string,
    readonly version: string,
    readonly manifest: ModelPackageManifest,
    private readonly runners: Map<number, BlockRunner>,
  ) {}

  /**
   * The process's resident memory when the first block load started: the runtime (Node,
   * onnxruntime, the window's server) before any model, the fixed part a device states beside
   * its blocks' weights. Null until a block loads.
   */
  static runtimeBytes: number | null = null;

  /**
   * The memory the package states for the blocks this process holds now (every worker's): a
   * device offering memory for a new plan offers this too, since a new plan releases the blocks
   * it holds before loading others.
   */
  static heldMemoryBytes = 0;

  /**
   * Loads blocks `blocks` of the package in `directory`. onnxruntime creates a session
   * synchronously (seconds for a block of gigabytes, longer when memory is short), so this
   * process answers nothing meanwhile: `busy` hears, before each block, how long it may take,
   * for the links to tell their peers (a `busy` frame).
   */
  static async load(
    directory: string,
    model: string,
    version: string,
    blocks: number[],
    threads = 1,
    busy: (seconds: number) => void = () => undefined,
  ): Promise<BlockWorker> {
    BlockWorker.runtimeBytes ??= process.memoryUsage.rss();
    const manifest = await readManifest(directory);
    const runners = new Map<number, BlockRunner>();
    try {
      for (const index of blocks) {
        busy(loadSeconds(manifest.blocks[index]!.memoryBytes));
        runners.set(index, await BlockRunner.load(directory, manifest, index, { threads }));
      }
    } catch (error) {
      for (const runner of runners.values()) await runner.release();
      throw error;
    }
    BlockWorker.heldMemoryBytes += blocks.reduce((sum, index) => sum + manifest.blocks[index]!.memoryBytes, 0);
    return new BlockWorker(model, version, manifest, runners);
  }

  get blocks(): number[] {
    return [...this.runners.keys()].sort((a, b) => a - b);
  }

  /** The held blocks' graphs and weights, as the package states them. */
  get weightsBytes(): number {
    return [...this.runners.values()].reduce((sum, r) => sum + r.block.bytes + r.block.weights.bytes, 0);
  }

  /** The key/value caches of the conversations kept, as allocated now (they grow with a conversation, up to the context length). */
  get cacheBytes(): number {
    let bytes = 0;
    for (const caches of this.sequences.values()) for (const cache of caches.values()) bytes += cache.bytes;
    return bytes;
  }

  holds(model: string, version: string, blocks: number[]): boolean {
    return (
      this.model === model && this.version === version && blocks.length === this.runners.size && blocks.every((b) => this.runners.has(b))
    );
  }

  /** Bytes a payload must have: token ids into the first block, the residual stream into the others. */
  inputBytes(firstBlock: number, tokens: number): number {
    return firstBlock === 0 ? tokens * 8 : tokens * this.manifest.hidden * 4;
  }

  /**
   * Runs `tokens` positions of conversation `seq` through blocks [first, end), all held here,
   * after its first `position` positions (anything after them is forgotten).
   */
  async forward(
    seq: number,
    position: number,
    first: number,
    end: number,
    input: BigInt64Array | Float32Array,
    tokens: number,
  ): Promise<Float32Array> {
    const runners = [];
    for (let index = first; index < end; index++) {
      const runner = this.runners.get(index);
      if (!runner) throw new Error(`This device does not hold block ${index} of ${this.model}.`);
      runners.push(runner);
    }
    let caches = this.sequences.get(seq);
    if (!caches) {
      if (position > 0) throw new CacheMissing(`This device holds nothing of conversation ${seq}.`);
      caches = new Map();
    }
    this.sequences.delete(seq); // re-inserted last: the map's order is the order of use
    this.sequences.set(seq, caches);
    for (const [key] of [...this.sequences].slice(0, Math.max(0, this.sequences.size - MAX_SEQUENCES))) this.sequences.delete(key);

    let state: BigInt64Array | Float32Array = input;
    for (const runner of runners) {
      let cache = caches.get(runner.block.index);
      if (!cache) caches.set(runner.block.index, (cache = runner.newCache()));
      if (cache.length < position)
        throw new CacheMissing(`This device holds ${cache.length} of ${position} positions of conversation ${seq}.`);
      cache.truncate(position);
      state = await runner.forward(state, tokens, cache);
    }
    return state as Float32Array;
  }

  release(seq: number): void {
    this.sequences.delete(seq);
  }

  async close(): Promise<void> {
    this.sequences.clear();
    const held = [...this.runners.values()].reduce((sum, runner) => sum + runner.block.memoryBytes, 0);
    for (const runner of this.runners.values()) await runner.release();
    this.runners.clear(); // closed twice, it releases nothing twice
    BlockWorker.heldMemoryBytes -= held;
  }
}
