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

  static async load(directory: string, model: string, version: string, blocks: number[], threads = 1): Promise<BlockWorker> {
    const manifest = await readManifest(directory);
    const runners = new Map<number, BlockRunner>();
    try {
      for (const index of blocks) runners.set(index, await BlockRunner.load(directory, manifest, index, { threads }));
    } catch (error) {
      for (const runner of runners.values()) await runner.release();
      throw error;
    }
    return new BlockWorker(model, version, manifest, runners);
  }

  get blocks(): number[] {
    return [...this.runners.keys()].sort((a, b) => a - b);
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
    for (const runner of this.runners.values()) await runner.release();
  }
}
