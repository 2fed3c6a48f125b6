/**
 * Packs a GGUF (of an architecture in architectures.ts) into a Meshwork model package: one ONNX file per block, `tokenizer.json`
 * and `model.json` (format 2: the rotary tables are the host's to make, from `rotary`). Each block is a graph (`block-N.onnx`) and its weights (`block-N.bin`, ONNX
 * external data). Packing streams: each tensor is read from the file when the graph reaches it
 * and written out as soon as it is converted, so memory holds about one layer, whatever the
 * model's size. The package is built in a hidden sibling directory and renamed into place at the
 * end, so a failed or refused pack leaves nothing behind.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { MODEL_MANIFEST_FILE, MODEL_PACKAGE_FORMAT, ModelPackageManifest, TOKENIZER_FILE, type ModelBlock } from '@meshwork/contracts';
import { buildBlockGraph, rotarySpecs } from './block-graph';
import { blockWeights } from './block-weights';
import { readGguf, type GgufFile } from './gguf';
import type { Activations } from './matrices';
import { modelConfig, type ModelConfig } from './model-config';
import { displayName, generationDefaults } from './model-metadata';
import { ExternalWeights } from './onnx/external-weights';
import type { PackProgress } from './pack-progress';
import { planBlocks } from './plan-blocks';
import { stopTokens, tokenizerJson } from './tokenizer-json';

/**
 * fp32 by default: int8 activations decode faster (SmolLM2-135M, one thread: 14.5 against 20 ms
 * a token) but move every logit a little, enough to flip a near tie, and the answer is no
 * longer the model's own ("L'Étoile…" for "The capital of France is Paris."). The error is
 * spread over every layer and kind of matrix, so no choice per matrix keeps both.
 */
export const DEFAULT_ACTIVATIONS: Activations = 'fp32';

export interface PackOptions {
  /** A GGUF file's path, or a file already read (hf/hf-folder.ts reads a Hugging Face folder as one). */
  gguf: string | GgufFile;
  out: string;
  blocks: number;
  /** `fp32` (the default) is exact; `int8` is faster and approximate. */
  activations?: Activations;
  /** The name in model.json; made from the GGUF's metadata by default. */
  name?: string;
  version?: string;
  /** One line per block written. */
  log?: (line: string) => void;
  /** What the packer is doing now and how far it is, often (a display keeps the latest). */
  progress?: (progress: PackProgress) => void;
  /** Stops the packing at the next tensor (Ctrl-C): the partial package is removed and nothing is left. */
  signal?: AbortSignal;
}

async function sha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Refuses an output directory with anything in it: a package is never merged into another. */
async function refuseNonEmpty(path: string): Promise<void> {
  const entries = await readdir(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    if (error.code === 'ENOTDIR') throw new Error(`The output ${path} is a file, not a directory`);
    throw error;
  });
  if (entries.length > 0) throw new Error(`The output directory ${path} is not empty`);
}

/** Every tensor's bytes, once: what the progress counts towards. */
function tensorBytes(file: GgufFile): number {
  let total = 0;
  for (const info of file.tensors.values()) total += info.byteLength;
  return total;
}

/**
 * Builds the package in a hidden sibling of `out` (same file system, so the final rename is
 * atomic) and moves it into place when `build` succeeds; removes it when anything fails.
 */
async function intoPlace<T>(out: string, build: (directory: string) => Promise<T>): Promise<T> {
  await refuseNonEmpty(out);
  await mkdir(dirname(out), { recursive: true });
  const work = await mkdtemp(join(dirname(out), `.${basename(out)}.partial-`));
  try {
    const result = await build(work);
    await rmdir(out).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    await rename(work, out);
    return result;
  } catch (error) {
    await rm(work, { recursive: true, force: true });
    throw error;
  }
}

export async function packModel(options: PackOptions): Promise<ModelPackageManifest> {
  // Everything the header can tell is checked here, before a byte is written.
  const file = typeof options.gguf === 'string' ? await readGguf(options.gguf) : options.gguf;
  const config = modelConfig(file);
  const tokenizer = tokenizerJson(file);
  return intoPlace(resolve(options.out), (directory) => writePackage(options, file, config, tokenizer, directory));
}

async function writePackage(
  options: PackOptions,
  file: GgufFile,
  config: ModelConfig,
  tokenizer: ReturnType<typeof tokenizerJson>,
  out: string,
): Promise<ModelPackageManifest> {
  const activations = options.activations ?? DEFAULT_ACTIVATIONS;
  const log = options.log ?? (() => undefined);
  const modelName = options.name ?? displayName(file);
  const generation = generationDefaults(file);

  // A token's work, in multiply-adds: each layer's projections, and the head's over the vocabulary.
  const { hidden, heads, kvHeads, headDim, ffn, vocabSize } = config;
  const layerWork = 2 * hidden * heads * headDim + 2 * hidden * kvHeads * headDim + 3 * hidden * ffn;
  const headWork = vocabSize * hidden;
  const ranges = planBlocks({
    layers: config.layers,
    blocks: options.blocks,
    layerCost: layerWork,
    firstExtraCost: 0,
    lastExtraCost: headWork,
  });
  const kvBytesPerLayer = 2 * config.kvHeads * config.headDim * 4;

  // Progress counts each tensor's bytes once (a tied head re-reads the embedding).
  const counted = new Set<string>();
  const bytesTotal = tensorBytes(file);
  let bytesDone = 0;
  let step = '';
  let block = 0;
  const report = (now: string) => {
    options.signal?.throwIfAborted();
    step = now;
    options.progress?.({ block: block + 1, blocks: ranges.length, step, bytesDone, bytesTotal });
  };

  const blocks: ModelBlock[] = [];
  let ropeFactors: Float32Array | undefined;
  for (const [index, range] of ranges.entries()) {
    block = index;
    const started = performance.now();
    const name = `block-${index}.onnx`;
    const weightsName = `block-${index}.bin`;
    report(`block ${index + 1} of ${ranges.length}: reading`);
    const weights = blockWeights(file, config, range, activations, {
      onLayer: (layer) => report(`block ${index + 1} of ${ranges.length}: read layer ${layer + 1} of ${config.layers}`),
      onRead: (info) => {
        if (!counted.has(info.name)) bytesDone += info.byteLength;
        counted.add(info.name);
        report(step);
      },
    });
    ropeFactors = weights.ropeFactors;
    // Weights go to disk as the graph takes them; the graph, which names them, follows.
    const external = new ExternalWeights(out, weightsName);
    try {
      buildBlockGraph(config, weights, activations, `${modelName} block ${index}`, external).write(out, name);
    } finally {
      external.close();
    }
    report(`block ${index + 1} of ${ranges.length}: hashing ${name} and ${weightsName}`);
    const bytes = (await stat(join(out, name))).size;
    const weightsBytes = (await stat(join(out, weightsName))).size;
    blocks.push({
      index,
      file: name,
      layers: [range.first, range.end],
      sha256: await sha256(join(out, name)),
      bytes,
      weights: { file: weightsName, sha256: await sha256(join(out, weightsName)), bytes: weightsBytes },
      memoryBytes: bytes + weightsBytes + kvBytesPerLayer * (range.end - range.first) * config.contextLength,
      work: layerWork * (range.end - range.first) + (index === ranges.length - 1 ? headWork : 0),
      input: index === 0 ? 'input_ids' : 'hidden_states',
      output: index === ranges.length - 1 ? 'logits' : 'hidden_states',
    });
    log(
      `${name}: layers ${range.first}-${range.end - 1}, ${((bytes + weightsBytes) / 1e6).toFixed(1)} MB, ${Math.round(performance.now() - started)} ms`,
    );
  }

  await writeFile(join(out, TOKENIZER_FILE), JSON.stringify(tokenizer));
  const manifest = ModelPackageManifest.parse({
    format: MODEL_PACKAGE_FORMAT,
    name: modelName,
    version: options.version ?? '1.0.0',
    architecture: config.architecture,
    contextLength: config.contextLength,
    layers: config.layers,
    hidden: config.hidden,
    heads: config.heads,
    kvHeads: config.kvHeads,
    headDim: config.headDim,
    vocabSize: config.vocabSize,
    activations,
    generation,
    tokenizer: TOKENIZER_FILE,
    chatTemplate: tokenizer.chatTemplate,
    specialTokens: { bos: tokenizer.bos, eos: tokenizer.eos, stop: stopTokens(tokenizer) },
    kvBytesPerToken: kvBytesPerLayer * config.layers,
    rotary: rotarySpecs(config),
    ropeFactors: ropeFactors && Array.from(ropeFactors),
    blocks,
  });
  await writeFile(join(out, MODEL_MANIFEST_FILE), JSON.stringify(manifest, null, 2));
  return manifest;
}
