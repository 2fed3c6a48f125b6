/**
 * The hyper-parameters of a GGUF model, read from its metadata (under its architecture's key
 * prefix, as llama.cpp reads them) and checked, so the graph builder works from one validated
 * object and a malformed file fails with the key it lacks.
 */
import type { ModelArchitecture } from '@meshwork/contracts';
import { architecture, type Architecture } from './architectures';
import { metaArray, metaNumber, metaString, type GgufFile } from './gguf';

export interface ModelConfig {
  architecture: ModelArchitecture;
  /** What the architecture adds to llama's layer. */
  kind: Architecture;
  layers: number;
  hidden: number;
  ffn: number;
  heads: number;
  kvHeads: number;
  /** From `attention.key_length` when stated: Gemma's and Qwen 3's heads are not hidden/heads wide. */
  headDim: number;
  ropeBase: number;
  /** Linear rope scaling: positions are multiplied by this (1/factor). Sliding layers keep 1. */
  ropeScale: number;
  rmsEpsilon: number;
  contextLength: number;
  vocabSize: number;
  /** True when the output head reuses the token embedding (no `output.weight`). */
  tiedEmbedding: boolean;
  /** Softmax scale of the attention scores. */
  attentionScale: number;
  /** Sliding-window layers, when the architecture has them: positions each sees (its own included). */
  sliding?: { window: number; pattern: number; ropeBase: number; ropeScale: number };
  attentionSoftcap?: number;
  finalSoftcap?: number;
}

/** Whether `layer` attends only to a sliding window (llama.cpp's `set_swa_pattern`: every pattern-th layer is global). */
export function isSlidingLayer(config: ModelConfig, layer: number): boolean {
  return config.sliding !== undefined && layer % config.sliding.pattern < config.sliding.pattern - 1;
}

export function modelConfig(file: GgufFile): ModelConfig {
  const { name, description: kind } = architecture(metaString(file, 'general.architecture'));
  const key = (suffix: string) => `${name}.${suffix}`;
  const optional = (suffix: string, fallback: number) => (file.metadata.has(key(suffix)) ? metaNumber(file, key(suffix)) : fallback);
  const hidden = metaNumber(file, key('embedding_length'));
  const heads = metaNumber(file, key('attention.head_count'));
  const layers = metaNumber(file, key('block_count'));
  const headDim = optional('attention.key_length', hidden / heads);
  const scaling = file.metadata.get(key('rope.scaling.type'));
  if (scaling !== undefined && scaling !== 'none' && scaling !== 'linear')
    throw new Error(`Rope scaling "${String(scaling)}" is not supported (only linear)`);
  for (const tensor of ['rope_factors_long.weight', 'rope_factors_short.weight']) {
    if (file.tensors.has(tensor)) throw new Error(`LongRoPE (${tensor}) is not supported`);
  }
  const ropeBase = optional('rope.freq_base', 10000);
  const ropeScale = scaling === 'linear' ? 1 / optional('rope.scaling.factor', 1) : 1;
  const config: ModelConfig = {
    architecture: name,
    kind,
    layers,
    hidden,
    ffn: metaNumber(file, key('feed_forward_length')),
    heads,
    kvHeads: optional('attention.head_count_kv', heads),
    headDim,
    ropeBase,
    ropeScale,
    rmsEpsilon: metaNumber(file, key('attention.layer_norm_rms_epsilon')),
    contextLength: metaNumber(file, key('context_length')),
    vocabSize: metaArray(file, 'tokenizer.ggml.tokens').length,
    tiedEmbedding: !file.tensors.has('output.weight'),
    attentionScale: 1 / Math.sqrt(kind.hiddenScaledQueries?.includes(layers) ? hidden / heads : headDim),
    sliding: kind.sliding && {
      window:
        kind.sliding.defaultWindow === undefined
          ? metaNumber(file, key('attention.sliding_window'))
          : optional('attention.sliding_window', kind.sliding.defaultWindow),
      pattern: kind.sliding.pattern,
      ropeBase: kind.sliding.localRope?.base ?? ropeBase,
      ropeScale: kind.sliding.localRope?.scale ?? ropeScale,
    },
    attentionSoftcap: kind.softcap && optional('attn_logit_softcapping', kind.softcap.attention),
    finalSoftcap: kind.softcap && optional('final_logit_softcapping', kind.softcap.final),
  };
  const { ffn, kvHeads, contextLength } = config;
  if (![layers, hidden, ffn, heads, kvHeads, contextLength].every((n) => Number.isInteger(n) && n > 0)) {
    throw new Error('The model metadata holds a size that is not a positive whole number');
  }
  if (!Number.isInteger(headDim) || headDim % 2 !== 0) throw new Error(`Heads of ${headDim} values cannot be rotated in pairs`);
  if (optional('attention.value_length', headDim) !== headDim) throw new Error('Values of another width than keys are not supported');
  if (heads % kvHeads !== 0) throw new Error(`${heads} attention heads do not group into ${kvHeads} key/value heads`);
  if (hidden % 32 !== 0 || ffn % 32 !== 0 || (heads * headDim) % 32 !== 0)
    throw new Error('Hidden, attention and feed-forward sizes must be multiples of 32');
  const ropeDims = optional('rope.dimension_count', headDim);
  if (ropeDims !== headDim) throw new Error(`Partial rotary embeddings (${ropeDims} of ${headDim}) are not supported`);
  if (config.sliding && !(Number.isInteger(config.sliding.window) && config.sliding.window > 0))
    throw new Error(`The sliding window ${config.sliding.window} is not a positive whole number`);
  return config;
}
