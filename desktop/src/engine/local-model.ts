/**
 * A model package run on this device alone: every block in order, one conversation, in an
 * engine thread (engine-thread.ts). A model split across devices runs the same blocks through
 * each device's BlockWorker instead.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MODEL_MANIFEST_FILE, MODEL_PACKAGE_FORMATS, ModelPackageManifest } from '@meshwork/contracts';
import type { BlockSetOptions } from './block-set';
import { EngineThread } from './engine-thread';
import { ContextLengthError } from './errors';
import type { ForwardPass } from './generate';

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

export interface LocalModelOptions extends BlockSetOptions {
  /**
   * Longest run of prompt positions in one pass. Attention holds a [heads, run, context] score
   * matrix: 2.4 GB for an 8,192-token prompt in one pass, 75 MB in runs of 256.
   */
  prefillChunk?: number;
}

const PREFILL_CHUNK = 256;
/** The one conversation a local model holds. */
const SEQ = 0;

export class LocalModel implements ForwardPass {
  private position = 0;

  private constructor(
    readonly manifest: ModelPackageManifest,
    private readonly thread: EngineThread,
    private readonly prefillChunk: number,
  ) {}

  /** Loads every block of the package in `directory`, in an engine thread of its own. */
  static async load(directory: string, { prefillChunk, ...options }: LocalModelOptions = {}): Promise<LocalModel> {
    const manifest = await readManifest(directory);
    const blocks = manifest.blocks.map((block) => block.index);
    const thread = await EngineThread.load({ directory, manifest, blocks, options });
    return new LocalModel(manifest, thread, prefillChunk ?? PREFILL_CHUNK);
  }

  get contextLength(): number {
    return this.manifest.contextLength;
  }

  get length(): number {
    return this.position;
  }

  async forward(ids: readonly number[]): Promise<Float32Array> {
    // Refused before any block runs, so a too-long prompt leaves the cache as it was.
    if (this.length + ids.length > this.contextLength) throw new ContextLengthError(this.length + ids.length, this.contextLength);
    let logits: Float32Array = new Float32Array();
    for (let start = 0; start < ids.length; start += this.prefillChunk) {
      const chunk = ids.slice(start, start + this.prefillChunk);
      const input = BigInt64Array.from(chunk, (id) => BigInt(id));
      logits = await this.thread.forward(SEQ, this.position, 0, this.manifest.blocks.length, input, chunk.length);
      this.position += chunk.length;
    }
    return logits;
  }

  truncate(length: number): void {
    this.position = Math.min(this.position, length);
  }

  /** Writes the profiles asked for by `profileFilePrefix` (benchmarks). */
  endProfiling(): Promise<void> {
    return this.thread.endProfiling();
  }

  release(): Promise<void> {
    return this.thread.close();
  }
}
