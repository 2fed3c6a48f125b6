/**
 * The hyper-parameters of a llama-architecture GGUF, read from its metadata and checked, so the
 * graph builder works from one validated object and a malformed file fails with the key it lacks.
 */
import { metaArray, metaNumber, metaString, type GgufFile } from './gguf';

export interface LlamaConfig {
  layers: number;
  hidden: number;
  ffn: number;
  heads: number;
  kvHeads: number;
  headDim: number;
  ropeBase: number;
  rmsEpsilon: number;
  contextLength: number;
  vocabSize: number;
  /** True when the output head reuses the token embedding (no `output.weight`). */
  tiedEmbedding: boolean;
}

function optionalNumber(file: GgufFile, key: string, fallback: number): number {
  return file.metadata.has(key) ? metaNumber(file, key) : fallback;
}

export function llamaConfig(file: GgufFile): LlamaConfig {
  const architecture = metaString(file, 'general.architecture');
  if (architecture !== 'llama') throw new Error(`Only llama models can be packed; this file is "${architecture}"`);
  const hidden = metaNumber(file, 'llama.embedding_length');
  const heads = metaNumber(file, 'llama.attention.head_count');
  const config: LlamaConfig = {
    layers: metaNumber(file, 'llama.block_count'),
    hidden,
    ffn: metaNumber(file, 'llama.feed_forward_length'),
    heads,
    kvHeads: optionalNumber(file, 'llama.attention.head_count_kv', heads),
    headDim: hidden / heads,
    ropeBase: optionalNumber(file, 'llama.rope.freq_base', 10000),
    rmsEpsilon: metaNumber(file, 'llama.attention.layer_norm_rms_epsilon'),
    contextLength: metaNumber(file, 'llama.context_length'),
    vocabSize: metaArray(file, 'tokenizer.ggml.tokens').length,
    tiedEmbedding: !file.tensors.has('output.weight'),
  };
  const { layers, ffn, kvHeads, headDim, contextLength } = config;
  if (![layers, hidden, ffn, heads, kvHeads, contextLength].every((n) => Number.isInteger(n) && n > 0)) {
    throw new Error('The model metadata holds a size that is not a positive whole number');
  }
  if (!Number.isInteger(headDim) || headDim % 2 !== 0) throw new Error(`Hidden size ${hidden} does not split into ${heads} even heads`);
  if (heads % kvHeads !== 0) throw new Error(`${heads} attention heads do not group into ${kvHeads} key/value heads`);
  if (hidden % 32 !== 0 || ffn % 32 !== 0) throw new Error('Hidden and feed-forward sizes must be multiples of 32');
  const ropeDims = optionalNumber(file, 'llama.rope.dimension_count', headDim);
  if (ropeDims !== headDim) throw new Error(`Partial rotary embeddings (${ropeDims} of ${headDim}) are not supported`);
  return config;
}
