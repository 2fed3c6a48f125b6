/**
 * A model package run in this process: every block (or, for a device that holds only some,
 * the listed ones) in order. A model split across devices chains the same BlockRunners over
 * the network instead.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MODEL_MANIFEST_FILE, MODEL_PACKAGE_FORMATS, ModelPackageManifest } from '@meshwork/contracts';
import { BlockRunner, type BlockRunnerOptions } from './block-runner';
import { ContextLengthError } from './errors';
import type { ForwardPass } from './generate';
import { RotaryTables } from './rotary';

export async function readManifest(directory: string): Promise<ModelPackageManifest> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(join(directory, MODEL_MANIFEST_FILE), 'utf8'));
  } catch (error) {
    throw new Error(`${MODEL_MANIFEST_FILE} in ${directory} cannot be read: ${(error as Error).message}`);
  }
  // A package from a newer packer says so, rather than failing on whatever it changed.
  const format = (json as { format?: unknown } | null)?.format;
  if (typeof format === 'string' && format.startsWith('meshwork-model/') && !(MODEL_PACKAGE_FORMATS as readonly string[]).includes(format))
    throw new Error(
      `${MODEL_MANIFEST_FILE} is a package of format ${format.slice(15, 30)}; this Meshwork reads formats ${MODEL_PACKAGE_FORMATS.map((f) => f.slice(15)).join(' and ')}: update Meshwork, or pack the model again with this version`,
    );
  const parsed = ModelPackageManifest.safeParse(json);
  if (!parsed.success)
    throw new Error(`${MODEL_MANIFEST_FILE} is not a Meshwork model package: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

export interface LocalModelOptions extends BlockRunnerOptions {
  /**
   * Longest run of prompt positions in one pass. Attention holds a [heads, run, context] score
   * matrix: 2.4 GB for an 8,192-token prompt in one pass, 75 MB in runs of 256.
   */
  prefillChunk?: number;
}

const PREFILL_CHUNK = 256;

export class LocalModel implements ForwardPass {
  private constructor(
    readonly manifest: ModelPackageManifest,
    readonly blocks: BlockRunner[],
    private readonly prefillChunk: number,
  ) {}

  static async load(directory: string, options: LocalModelOptions = {}): Promise<LocalModel> {
    const manifest = await readManifest(directory);
    const blocks: BlockRunner[] = [];
    const rotary = new RotaryTables(manifest);
    for (const block of manifest.blocks) blocks.push(await BlockRunner.load(directory, manifest, block.index, { rotary, ...options }));
    return new LocalModel(manifest, blocks, options.prefillChunk ?? PREFILL_CHUNK);
  }

  get contextLength(): number {
    return this.manifest.contextLength;
  }

  get length(): number {
    return this.blocks[0]!.cache.length;
  }

  async forward(ids: readonly number[]): Promise<Float32Array> {
    // Refused before any block runs, so a too-long prompt leaves the cache as it was.
    if (this.length + ids.length > this.contextLength) throw new ContextLengthError(this.length + ids.length, this.contextLength);
    let logits: Float32Array = new Float32Array();
    for (let start = 0; start < ids.length; start += this.prefillChunk) {
      const chunk = ids.slice(start, start + this.prefillChunk);
      let state: BigInt64Array | Float32Array = BigInt64Array.from(chunk, (id) => BigInt(id));
      for (const block of this.blocks) state = await block.forward(state, chunk.length);
      logits = state as Float32Array;
    }
    return logits;
  }

  truncate(length: number): void {
    for (const block of this.blocks) block.cache.truncate(length);
  }

  async release(): Promise<void> {
    for (const block of this.blocks) await block.release();
  }
}
