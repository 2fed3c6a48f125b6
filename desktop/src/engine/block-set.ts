/**
 * Some blocks of one model package (a device may hold only some), and for each conversation
 * (`seq`) a key/value cache per block. It lives in the engine thread (engine-thread.ts): an
 * onnxruntime session runs synchronously, so the thread that runs it answers nothing else.
 */
import type { ModelPackageManifest } from '@meshwork/contracts';
import { BlockRunner } from './block-runner';
import { CacheMissing } from './errors';
import type { KvCache } from './kv-cache';
import { RotaryTables } from './rotary';

/** Conversations whose caches are kept; the least recently used beyond this are dropped. */
const MAX_SEQUENCES = 32;

/** What a block set is loaded with: plain data, sent to the engine thread. */
export interface BlockSetOptions {
  /** Threads for the matrix products; one per session is fastest on small machines. */
  threads?: number;
  /** Hash each file before loading it (a downloaded package is outside input). */
  verify?: boolean;
  /** Benchmarks only: onnxruntime profiles every run into files whose names start so (see BlockRunnerOptions). */
  profileFilePrefix?: string;
}

/** A run: `tokens` positions of conversation `seq` through blocks [first, end), after its first `position` positions. */
export type ForwardArgs = [seq: number, position: number, first: number, end: number, input: BigInt64Array | Float32Array, tokens: number];

export class BlockSet {
  private readonly sequences = new Map<number, Map<number, KvCache>>();

  private constructor(
    private readonly manifest: ModelPackageManifest,
    private readonly runners: Map<number, BlockRunner>,
  ) {}

  static async load(directory: string, manifest: ModelPackageManifest, blocks: number[], options: BlockSetOptions): Promise<BlockSet> {
    const rotary = new RotaryTables(manifest);
    const runners = new Map<number, BlockRunner>();
    try {
      for (const index of blocks) runners.set(index, await BlockRunner.load(directory, manifest, index, { ...options, rotary }));
    } catch (error) {
      for (const runner of runners.values()) await runner.release();
      throw error;
    }
    return new BlockSet(manifest, runners);
  }

  /** Each kept conversation's key/value caches, as allocated now (they grow with it, up to the context length). */
  cacheBytes(): [seq: number, bytes: number][] {
    return [...this.sequences].map(([seq, caches]) => [seq, [...caches.values()].reduce((sum, cache) => sum + cache.bytes, 0)]);
  }

  /**
   * Runs `tokens` positions of conversation `seq` through blocks [first, end), all held here,
   * after its first `position` positions (anything after them is forgotten).
   */
  async forward(...[seq, position, first, end, input, tokens]: ForwardArgs): Promise<Float32Array> {
    const runners = [];
    for (let index = first; index < end; index++) {
      const runner = this.runners.get(index);
      if (!runner) throw new Error(`This device does not hold block ${index} of ${this.manifest.name}.`);
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

  /** Writes the profiles asked for by `profileFilePrefix`. */
  endProfiling(): void {
    for (const runner of this.runners.values()) runner.endProfiling();
  }

  async close(): Promise<void> {
    this.sequences.clear();
    for (const runner of this.runners.values()) await runner.release();
    this.runners.clear(); // closed twice, it releases nothing twice
  }
}
