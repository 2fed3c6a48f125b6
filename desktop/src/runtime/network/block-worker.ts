/**
 * The blocks of one model that this device runs for its network, and a key/value cache per
 * conversation (`seq`) for each of them, in an engine thread of their own (so loading and
 * running them never stalls this process's links, window or api). The host runs its share
 * through one of these too, so a block computes the same here or on a member.
 */
import type { ModelPackageManifest } from '@meshwork/contracts';
import type { ForwardArgs } from '../../engine/block-set';
import { EngineThread } from '../../engine/engine-thread';
import { readManifest } from '../../engine/local-model';

export class BlockWorker {
  private closed = false;

  private constructor(
    readonly model: string,
    readonly version: string,
    readonly manifest: ModelPackageManifest,
    readonly blocks: number[],
    private readonly thread: EngineThread,
  ) {}

  /**
   * The process's resident memory when the first engine thread was up and no block had loaded:
   * the runtime (Node, the window's server, the engine thread with onnxruntime) before any model,
   * the fixed part a device states beside its blocks' weights. Null until a block loads.
   */
  static runtimeBytes: number | null = null;

  /**
   * The memory the package states for the blocks this process holds now (every worker's): a
   * device offering memory for a new plan offers this too, since a new plan releases the blocks
   * it holds before loading others.
   */
  static heldMemoryBytes = 0;

  /** Loads blocks `blocks` of the package in `directory`, in a thread of their own. */
  static async load(directory: string, model: string, version: string, blocks: number[], threads = 1): Promise<BlockWorker> {
    const manifest = await readManifest(directory);
    const held = [...blocks].sort((a, b) => a - b);
    const thread = await EngineThread.load({ directory, manifest, blocks: held, options: { threads } }, () => {
      BlockWorker.runtimeBytes ??= process.memoryUsage.rss();
    });
    BlockWorker.heldMemoryBytes += held.reduce((sum, index) => sum + manifest.blocks[index]!.memoryBytes, 0);
    return new BlockWorker(model, version, manifest, held, thread);
  }

  /** The held blocks' graphs and weights, as the package states them. */
  get weightsBytes(): number {
    return this.blocks.reduce((sum, index) => sum + this.manifest.blocks[index]!.bytes + this.manifest.blocks[index]!.weights.bytes, 0);
  }

  /** The key/value caches of the conversations kept, as allocated now (they grow with a conversation, up to the context length). */
  get cacheBytes(): number {
    return this.thread.cacheBytes;
  }

  holds(model: string, version: string, blocks: number[]): boolean {
    return (
      this.model === model &&
      this.version === version &&
      blocks.length === this.blocks.length &&
      blocks.every((b) => this.blocks.includes(b))
    );
  }

  /** Bytes a payload must have: token ids into the first block, the residual stream into the others. */
  inputBytes(firstBlock: number, tokens: number): number {
    return firstBlock === 0 ? tokens * 8 : tokens * this.manifest.hidden * 4;
  }

  /**
   * Runs `tokens` positions of conversation `seq` through blocks [first, end), all held here,
   * after its first `position` positions (anything after them is forgotten). Throws
   * `CacheMissing` when this device no longer has the conversation's earlier positions.
   */
  forward(...run: ForwardArgs): Promise<Float32Array> {
    return this.thread.forward(...run);
  }

  release(seq: number): void {
    this.thread.release(seq);
  }

  async close(): Promise<void> {
    if (this.closed) return; // closed twice, it releases nothing twice
    this.closed = true;
    BlockWorker.heldMemoryBytes -= this.blocks.reduce((sum, index) => sum + this.manifest.blocks[index]!.memoryBytes, 0);
    await this.thread.close();
  }
}
