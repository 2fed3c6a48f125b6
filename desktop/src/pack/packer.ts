/**
 * Packs a GGUF (of an architecture in architectures.ts) into a Meshwork model package: one ONNX file per block, `tokenizer.json`
 * and `model.json`. Each block is a graph (`block-N.onnx`) and its weights (`block-N.bin`, ONNX
 * external data). `model.json` is written last, under a temporary name and renamed, so a
 * package with a manifest is always whole.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MODEL_MANIFEST_FILE, MODEL_PACKAGE_FORMAT, ModelPackageManifest, TOKENIZER_FILE, type ModelBlock } from '@meshwork/contracts';
import { buildBlockGraph } from './block-graph';
import { loadBlockWeights } from './block-weights';
import { readGguf } from './gguf';
import type { Activations } from './matrices';
import { modelConfig } from './model-config';
import { displayName, generationDefaults } from './model-metadata';
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
  gguf: string;
  out: string;
  blocks: number;
  /** `fp32` (the default) is exact; `int8` is faster and approximate. */
  activations?: Activations;
  /** The name in model.json; made from the GGUF's metadata by default. */
  name?: string;
  version?: string;
  /** One line per block written. */
  log?: (line: string) => void;
  /** What the packer is doing now, often (a display keeps the latest). */
  progress?: (step: string) => void;
}

async function sha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function emptyDirectory(path: string): Promise<void> {
  await mkdir(path, { recursive: true });
  if ((await readdir(path)).length > 0) throw new Error(`The output directory ${path} is not empty`);
}

export async function packModel(options: PackOptions): Promise<ModelPackageManifest> {
  const activations = options.activations ?? DEFAULT_ACTIVATIONS;
  const log = options.log ?? (() => undefined);
  const progress = options.progress ?? (() => undefined);
  const file = await readGguf(options.gguf);
  const config = modelConfig(file);
  const tokenizer = tokenizerJson(file);
  const modelName = options.name ?? displayName(file);
  const generation = generationDefaults(file);
  await emptyDirectory(options.out);

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

  const blocks: ModelBlock[] = [];
  for (const [index, range] of ranges.entries()) {
    const started = performance.now();
    const weights = await loadBlockWeights(file, config, range, activations, (layer) =>
      progress(`block ${index + 1} of ${ranges.length}: read layer ${layer + 1} of ${config.layers}`),
    );
    const name = `block-${index}.onnx`;
    const weightsName = `block-${index}.bin`;
    progress(`block ${index + 1} of ${ranges.length}: writing ${name} and ${weightsName}`);
    const graph = buildBlockGraph(config, weights, activations, `${modelName} block ${index}`, weightsName);
    // The graph names its weights file, so both are written under their final names; model.json,
    // written last, is what makes the package whole.
    graph.write(options.out, name);
    progress(`block ${index + 1} of ${ranges.length}: hashing ${name} and ${weightsName}`);
    const bytes = (await stat(join(options.out, name))).size;
    const weightsBytes = (await stat(join(options.out, weightsName))).size;
    blocks.push({
      index,
      file: name,
      layers: [range.first, range.end],
      sha256: await sha256(join(options.out, name)),
      bytes,
      weights: { file: weightsName, sha256: await sha256(join(options.out, weightsName)), bytes: weightsBytes },
      memoryBytes: bytes + weightsBytes + kvBytesPerLayer * (range.end - range.first) * config.contextLength,
      work: layerWork * (range.end - range.first) + (index === ranges.length - 1 ? headWork : 0),
      input: index === 0 ? 'input_ids' : 'hidden_states',
      output: index === ranges.length - 1 ? 'logits' : 'hidden_states',
    });
    log(
      `${name}: layers ${range.first}-${range.end - 1}, ${((bytes + weightsBytes) / 1e6).toFixed(1)} MB, ${Math.round(performance.now() - started)} ms`,
    );
  }

  await writeFile(join(options.out, TOKENIZER_FILE), JSON.stringify(tokenizer));
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
    blocks,
  });
  await writeFile(join(options.out, `${MODEL_MANIFEST_FILE}.partial`), JSON.stringify(manifest, null, 2));
  await rename(join(options.out, `${MODEL_MANIFEST_FILE}.partial`), join(options.out, MODEL_MANIFEST_FILE));
  return manifest;
}
