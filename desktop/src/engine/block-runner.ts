/**
 * Runs one block of a model package in its own onnxruntime session, with its own key/value
 * cache. A device may hold only some blocks; the blocks of a model chain through the residual
 * stream (`hidden_states`), on one machine or several.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import type { ModelBlock, ModelPackageManifest } from '@meshwork/contracts';
import { BlockIo } from './block-io';
import { ContextLengthError } from './errors';
import { KvCache } from './kv-cache';
import { RotaryTables } from './rotary';

export interface BlockRunnerOptions {
  /** Threads for the matrix products; one per session is fastest on small machines. */
  threads?: number;
  /** Hash the file before loading it (a downloaded package is outside input). */
  verify?: boolean;
  /** The model's rotary tables, shared by the blocks of one process (made here otherwise). */
  rotary?: RotaryTables;
  /**
   * Benchmarks only: onnxruntime profiles every run node by node into a JSON file whose name
   * starts so and then names the block, written by `endProfiling`.
   */
  profileFilePrefix?: string;
}

async function sha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export class BlockRunner {
  private readonly layers: number[];
  /** The rotary tables the graph reads (format 2; none in format 1, which stores them). */
  private readonly rotaryInputs: number[];

  private constructor(
    readonly block: ModelBlock,
    private readonly manifest: ModelPackageManifest,
    private readonly session: InferenceSession,
    private readonly rotary: RotaryTables,
  ) {
    const [first, end] = block.layers;
    this.layers = Array.from({ length: end - first }, (_, i) => first + i);
    this.rotaryInputs = (manifest.rotary ?? []).flatMap((_, i) => (session.inputNames.includes(BlockIo.rotaryCos(i)) ? [i] : []));
  }

  /** A cache of this block's layers for a conversation (one block serves several at once). */
  newCache(): KvCache {
    const { kvHeads, headDim, contextLength } = this.manifest;
    return new KvCache({ layers: this.layers, kvHeads, headDim, contextLength });
  }

  static async load(
    directory: string,
    manifest: ModelPackageManifest,
    index: number,
    options: BlockRunnerOptions = {},
  ): Promise<BlockRunner> {
    const block = manifest.blocks[index];
    if (!block) throw new Error(`The model ${manifest.name} has no block ${index}`);
    const path = join(directory, block.file);
    if (options.verify) {
      for (const file of [block, block.weights]) {
        if ((await sha256(join(directory, file.file))) !== file.sha256)
          throw new Error(`${file.file} does not match the package's SHA-256; download it again`);
      }
    }
    const session = await InferenceSession.create(path, {
      intraOpNumThreads: options.threads ?? 1,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
      // No arena and no planned memory pattern: either keeps the largest run's activations (a long
      // prompt's) for the session's life. Measured on SmolLM2 in 6 blocks, a 256-token prompt:
      // peak RSS 388 → 290 MB, prefill and decode as fast (issue 34).
      enableCpuMemArena: false,
      enableMemPattern: false,
      ...(options.profileFilePrefix ? { enableProfiling: true, profileFilePrefix: `${options.profileFilePrefix}.block-${index}` } : {}),
    });
    return new BlockRunner(block, manifest, session, options.rotary ?? new RotaryTables(manifest));
  }

  /**
   * Runs `tokens` new positions through the block after what its cache holds: token ids for the
   * first block, the previous block's residual stream for the others. Answers the next block's
   * input, or the last position's logits from the last block. `cache` is the conversation's.
   */
  async forward(input: BigInt64Array | Float32Array, tokens: number, cache: KvCache): Promise<Float32Array> {
    const { hidden } = this.manifest;
    if (cache.length + tokens > this.manifest.contextLength) {
      throw new ContextLengthError(cache.length + tokens, this.manifest.contextLength);
    }
    cache.reserve(tokens);
    const total = cache.length + tokens;
    const feeds: Record<string, Tensor> = {
      [BlockIo.seqlensK]: new Tensor('int32', Int32Array.of(total - 1), [1]),
      [BlockIo.totalLength]: new Tensor('int32', Int32Array.of(total), []),
    };
    if (this.block.input === 'input_ids') feeds[BlockIo.inputIds] = new Tensor('int64', input as BigInt64Array, [1, tokens]);
    else feeds[BlockIo.hiddenIn] = new Tensor('float32', input as Float32Array, [tokens, hidden]);
    for (const layer of this.layers) {
      feeds[BlockIo.pastKey(layer)] = cache.key(layer);
      feeds[BlockIo.pastValue(layer)] = cache.value(layer);
    }
    // As many positions as the cache has room for (at least the total length attention reads).
    const positions = Math.max(total, cache.key(this.layers[0]!).dims[2]!);
    for (const index of this.rotaryInputs)
      [feeds[BlockIo.rotaryCos(index)], feeds[BlockIo.rotarySin(index)]] = this.rotary.covering(index, positions);
    const results = await this.session.run(feeds);
    const added = results[BlockIo.newKeyValues]!.data as Float32Array;
    const perTensor = this.manifest.kvHeads * tokens * this.manifest.headDim;
    for (const [i, layer] of this.layers.entries()) {
      const at = 2 * i * perTensor;
      cache.append(layer, added.subarray(at, at + perTensor), added.subarray(at + perTensor, at + 2 * perTensor), tokens);
    }
    cache.length = total;
    return results[this.block.output === 'logits' ? BlockIo.logits : BlockIo.hiddenOut]!.data as Float32Array;
  }

  /** Writes the profile asked for by `profileFilePrefix` (the file is named by onnxruntime). */
  endProfiling(): void {
    this.session.endProfiling();
  }

  async release(): Promise<void> {
    await this.session.release();
  }
}
