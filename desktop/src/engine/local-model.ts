/**
 * A model package run in this process: every block (or, for a device that holds only some,
 * the listed ones) in order. A model split across devices chains the same BlockRunners over
 * the network instead.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MODEL_MANIFEST_FILE, ModelPackageManifest } from '@meshwork/contracts';
import { BlockRunner, type BlockRunnerOptions } from './block-runner';
import type { ForwardPass } from './generate';

export async function readManifest(directory: string): Promise<ModelPackageManifest> {
  const parsed = ModelPackageManifest.safeParse(JSON.parse(await readFile(join(directory, MODEL_MANIFEST_FILE), 'utf8')));
  if (!parsed.success)
    throw new Error(`${MODEL_MANIFEST_FILE} is not a Meshwork model package: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

export class LocalModel implements ForwardPass {
  private constructor(
    readonly manifest: ModelPackageManifest,
    readonly blocks: BlockRunner[],
  ) {}

  static async load(directory: string, options: BlockRunnerOptions = {}): Promise<LocalModel> {
    const manifest = await readManifest(directory);
    const blocks: BlockRunner[] = [];
    for (const block of manifest.blocks) blocks.push(await BlockRunner.load(directory, manifest, block.index, options));
    return new LocalModel(manifest, blocks);
  }

  get contextLength(): number {
    return this.manifest.contextLength;
  }

  get length(): number {
    return this.blocks[0]!.cache.length;
  }

  async forward(ids: readonly number[]): Promise<Float32Array> {
    let state: BigInt64Array | Float32Array = BigInt64Array.from(ids, (id) => BigInt(id));
    for (const block of this.blocks) state = await block.forward(state, ids.length);
    return state as Float32Array;
  }

  truncate(length: number): void {
    for (const block of this.blocks) block.cache.truncate(length);
  }

  async release(): Promise<void> {
    for (const block of this.blocks) await block.release();
  }
}
