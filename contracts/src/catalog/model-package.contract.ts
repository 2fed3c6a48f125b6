import { z } from 'zod';

/**
 * A model package's manifest, `model.json`: what the packer writes and what a desktop host
 * reads before it loads any block. A downloaded package is outside input, so the host parses
 * it with this schema; a block's file, size and hash are checked before onnxruntime opens it.
 */

/**
 * 2: rotary tables are graph inputs the host makes from `rotary` (1 stored them for the whole
 * context in every block). Hosts load both; the packer writes 2.
 */
export const MODEL_PACKAGE_FORMAT = 'meshwork-model/2';
export const MODEL_PACKAGE_FORMATS = ['meshwork-model/1', MODEL_PACKAGE_FORMAT] as const;
export const MODEL_MANIFEST_FILE = 'model.json';
export const TOKENIZER_FILE = 'tokenizer.json';
/** The model architectures a package may hold (GGUF `general.architecture` names): the packer takes these and no others. */
export const MODEL_ARCHITECTURES = ['llama', 'qwen2', 'qwen3', 'gemma2', 'gemma3', 'phi3'] as const;
export type ModelArchitecture = (typeof MODEL_ARCHITECTURES)[number];

const count = z.number().int().positive();
const fileName = z.string().regex(/^[A-Za-z0-9._-]{1,100}$/, 'A package file name is a plain name, never a path');

export const ModelBlock = z.object({
  index: z.number().int().nonnegative(),
  file: fileName,
  /** Global layer range [first, end). */
  layers: z.tuple([z.number().int().nonnegative(), count]),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  bytes: count,
  /** The block's large weights, beside its graph (ONNX external data), so they load without a copy. */
  weights: z.object({ file: fileName, sha256: z.string().regex(/^[0-9a-f]{64}$/), bytes: count }),
  /** The graph and weights plus the key/value cache at the full context length, in bytes. */
  memoryBytes: count,
  /**
   * Multiply-adds a token costs in the block's matrix products: what a network balances across
   * its devices (bytes would count the embedding, only looked up, as work). Packages made before
   * it was recorded do not have it.
   */
  work: count.optional(),
  /** The first block takes token ids; the others take the residual stream. */
  input: z.enum(['input_ids', 'hidden_states']),
  /** The last block answers logits; the others the residual stream. */
  output: z.enum(['hidden_states', 'logits']),
});
export type ModelBlock = z.output<typeof ModelBlock>;

/**
 * The sampling a model's authors recommend, as its GGUF states it (llama.cpp's
 * `general.sampling.*` keys), each only when stated: hosts answer with these where a request
 * sets nothing of its own, and with their general defaults where the package is silent.
 */
export const GenerationDefaults = z.object({
  temperature: z.number().min(0).max(5).optional(),
  topP: z.number().gt(0).max(1).optional(),
  topK: z.number().int().min(0).optional(),
  /** Divides the logit of a token seen in the last `repeatLastN` (1: no penalty). */
  repeatPenalty: z.number().gt(0).max(10).optional(),
  repeatLastN: z.number().int().min(0).optional(),
});
export type GenerationDefaults = z.output<typeof GenerationDefaults>;

export const ModelPackageManifest = z
  .object({
    format: z.enum(MODEL_PACKAGE_FORMATS),
    /** The model's name for people: the packer's `--name`, or one it makes from the GGUF's metadata. */
    name: z.string().min(1).max(200),
    version: z.string().min(1).max(50),
    architecture: z.enum(MODEL_ARCHITECTURES),
    contextLength: count,
    layers: count,
    hidden: count,
    heads: count,
    kvHeads: count,
    headDim: count,
    vocabSize: count,
    /** `fp32`: exact (the packer's default); `int8`: activations quantised per block inside each matrix product, faster. */
    activations: z.enum(['fp32', 'int8']),
    generation: GenerationDefaults.optional(),
    tokenizer: fileName,
    chatTemplate: z.string().max(100_000),
    specialTokens: z.object({
      bos: z.number().int().nonnegative().optional(),
      eos: z.number().int().nonnegative(),
      stop: z.array(z.number().int().nonnegative()).max(16),
    }),
    /** Bytes of key/value cache one position takes across all layers. */
    kvBytesPerToken: count,
    /**
     * Format 2: the rotary tables the blocks read (the engine's `BlockIo.rotaryCos(i)`), angle
     * `scale·position·base^(-2i/headDim) / ropeFactors[i]`: the global layers' first, then the
     * sliding layers' where they differ.
     */
    rotary: z
      .array(z.object({ base: z.number().gt(1).max(1e12), scale: z.number().gt(0).max(1e6) }))
      .min(1)
      .max(4)
      .optional(),
    /** Divisors of the rotary frequencies, [headDim/2] (Llama 3.1's `rope_freqs`). */
    ropeFactors: z.array(z.number().gt(0).max(1e12)).max(1024).optional(),
    blocks: z.array(ModelBlock).min(1).max(256),
  })
  .superRefine((manifest, context) => {
    let next = 0;
    for (const [i, block] of manifest.blocks.entries()) {
      if (block.index !== i || block.layers[0] !== next || block.layers[1] <= block.layers[0]) {
        context.addIssue({
          code: 'custom',
          message: `Block ${i} does not continue the layers where block ${i - 1} ended`,
          path: ['blocks', i],
        });
      }
      next = block.layers[1];
      const first = i === 0;
      const last = i === manifest.blocks.length - 1;
      if ((block.input === 'input_ids') !== first || (block.output === 'logits') !== last) {
        context.addIssue({ code: 'custom', message: `Block ${i} has the wrong input or output for its place`, path: ['blocks', i] });
      }
    }
    if (manifest.format !== 'meshwork-model/1' && !manifest.rotary)
      context.addIssue({ code: 'custom', message: 'A format 2 package describes its rotary tables', path: ['rotary'] });
    if (manifest.headDim % 2 !== 0 || (manifest.ropeFactors && manifest.ropeFactors.length !== manifest.headDim / 2))
      context.addIssue({ code: 'custom', message: 'The rotary factors do not fit the head size', path: ['ropeFactors'] });
    if (next !== manifest.layers)
      context.addIssue({ code: 'custom', message: `The blocks cover ${next} of ${manifest.layers} layers`, path: ['blocks'] });
  });
export type ModelPackageManifest = z.output<typeof ModelPackageManifest>;

/**
 * `tokenizer.json`: the model's vocabulary as the GGUF holds it (ids are positions in `tokens`),
 * by llama.cpp's kind: `gpt2`, byte-level BPE (merges ranked by position, the pre-tokenizer by
 * llama.cpp's name), or `llama`, SentencePiece (each token's score; spaces written `▁`; byte
 * fallback tokens `<0xNN>`). Token types follow GGUF: 1 normal, 2 unknown, 3 control, 4 user
 * defined, 5 unused, 6 byte.
 */
export const TokenizerJson = z.object({
  format: z.literal('meshwork-tokenizer/1'),
  model: z.enum(['gpt2', 'llama']),
  pre: z.string().max(50),
  tokens: z.array(z.string().max(1000)).min(1).max(1_000_000),
  tokenTypes: z.array(z.number().int().min(0).max(6)).max(1_000_000),
  merges: z.array(z.string().max(2000)).max(1_000_000),
  /** SentencePiece: one per token. */
  scores: z.array(z.number()).max(1_000_000).optional(),
  bos: z.number().int().nonnegative().optional(),
  eos: z.number().int().nonnegative(),
  unknown: z.number().int().nonnegative().optional(),
  addBos: z.boolean(),
  addEos: z.boolean().optional(),
  /** SentencePiece: a space before the text and after each special token (llama.cpp's add_space_prefix). */
  addSpacePrefix: z.boolean().optional(),
  /** Special tokens that swallow the whitespace after them (llama.cpp sets these for Phi-3). */
  stripAfter: z.array(z.number().int().nonnegative()).max(1_000_000).optional(),
  chatTemplate: z.string().max(100_000),
});
export type TokenizerJson = z.output<typeof TokenizerJson>;
