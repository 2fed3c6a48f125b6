/**
 * Small random-weight models of every architecture the packer takes, with each one's real
 * structure (tensor names, fused tensors, biases, q/k norms, post-norms, key_length wider than
 * hidden/heads, sliding windows, soft-capping, rope frequency factors), written as GGUF so
 * llama.cpp and the packer read the same file. Matrices and the embedding take any type the
 * packer reads, one for all or one per tensor (a Q4_K_M-like mix); norms and biases are F32.
 */
import { seededRandom } from '../../../desktop/src/engine/sampler';
import { dequantize, GgmlType } from '../../../desktop/src/pack/quant';
import { quantize, writeGguf, type MetaValue, type RawTensorSpec } from './tiny-gguf';
import { tinyVocabulary } from './tiny-llama';

/** The architectures, and llama's variants that differ in what they hold. */
export const SYNTHETIC_MODELS = ['llama', 'llama3.1', 'mistral', 'qwen2', 'qwen3', 'gemma2', 'gemma3', 'phi3'] as const;
export type SyntheticModel = (typeof SYNTHETIC_MODELS)[number];

/** A weight's type, by tensor name (`blk.0.attn_q.weight`, `token_embd.weight`, ...) and row length. */
export type TypeOf = (name: string, row: number) => GgmlType;

export interface SyntheticOptions {
  /** 128 by default; 256 (with FFN 512 unless given) for types whose blocks are 256 long. */
  hidden?: 128 | 256;
  /** The feed-forward width: 2·hidden by default. */
  ffn?: number;
  seed?: number;
}

interface Shape {
  architecture: string;
  layers: number;
  heads: number;
  kvHeads: number;
  /** key_length, when it is not hidden/heads. */
  headDim?: number;
  tied: boolean;
  ropeBase: number;
  /** SentencePiece (as real Phi-3 files have; llama.cpp loads phi3 with no other) rather than byte-level BPE. */
  sentencePiece?: boolean;
}

const VOCAB = 512;
export const SYNTHETIC_CONTEXT = 512;
/** Sliding windows this short are crossed many times in a few hundred positions. */
const WINDOW = 32;

const SHAPES: Record<SyntheticModel, Shape> = {
  llama: { architecture: 'llama', layers: 3, heads: 4, kvHeads: 2, tied: true, ropeBase: 10000 },
  'llama3.1': { architecture: 'llama', layers: 3, heads: 4, kvHeads: 2, tied: false, ropeBase: 500000 },
  mistral: { architecture: 'llama', layers: 3, heads: 4, kvHeads: 1, tied: false, ropeBase: 1000000 },
  qwen2: { architecture: 'qwen2', layers: 3, heads: 4, kvHeads: 2, tied: true, ropeBase: 1000000 },
  qwen3: { architecture: 'qwen3', layers: 3, heads: 4, kvHeads: 2, headDim: 64, tied: true, ropeBase: 1000000 },
  gemma2: { architecture: 'gemma2', layers: 4, heads: 4, kvHeads: 2, headDim: 64, tied: true, ropeBase: 10000 },
  // Six layers: five sliding, then the global one.
  gemma3: { architecture: 'gemma3', layers: 6, heads: 4, kvHeads: 1, headDim: 64, tied: true, ropeBase: 1000000 },
  phi3: { architecture: 'phi3', layers: 3, heads: 4, kvHeads: 4, tied: false, ropeBase: 10000, sentencePiece: true },
};

/** Llama 3.1's rope factors have this form: 1 for fast frequencies, up to 8 for slow ones. */
function ropeFactors(count: number): Float32Array {
  return Float32Array.from({ length: count }, (_, i) => 1 + (7 * i) / (count - 1));
}

/**
 * llama.cpp's Q4_K_M recipe (llama_tensor_get_type) on a model of `layers` layers: Q4_K, with
 * Q6_K for the head and for attn_v and ffn_down in the layers it gives more bits; where a row
 * is not a whole number of 256-element blocks, Q4_K falls back to Q5_0 and Q6_K to Q8_0.
 */
export function q4KMedium(layers: number): TypeOf {
  const eighth = Math.floor(layers / 8);
  const moreBits = (layer: number) => layer < eighth || layer >= Math.floor((7 * layers) / 8) || (layer - eighth) % 3 === 2;
  return (name, row) => {
    const layer = Number(/^blk\.(\d+)\./.exec(name)?.[1] ?? -1);
    const six = name === 'output.weight' || (/attn_v|ffn_down/.test(name) && moreBits(layer));
    if (row % 256 === 0) return six ? GgmlType.Q6_K : GgmlType.Q4_K;
    return six ? GgmlType.Q8_0 : GgmlType.Q5_0;
  };
}

/** A byte-level BPE vocabulary (SmolLM2's kind), or a SentencePiece one with scores and byte tokens. */
function vocabulary(sentencePiece: boolean): Record<string, MetaValue> {
  const u32 = (value: number): MetaValue => ({ type: 'u32', value });
  if (sentencePiece) {
    // Phi-3's layout: <unk>, <s>, </s>, the 256 byte tokens, then pieces; its end-of-turn tokens by name.
    const bytes = Array.from({ length: 256 }, (_, b) => `<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
    const tokens = ['<unk>', '<s>', '</s>', ...bytes, '<|end|>', '<|endoftext|>'];
    for (let i = 0; tokens.length < VOCAB; i++) tokens.push(`▁${String.fromCharCode(97 + (i % 26))}${i}`);
    const types = tokens.map((token, id) => (id === 0 ? 2 : token.startsWith('<0x') ? 6 : token.startsWith('<') ? 3 : 1));
    return {
      'tokenizer.ggml.model': { type: 'string', value: 'llama' },
      'tokenizer.ggml.tokens': { type: 'array', itemType: 'string', value: tokens },
      'tokenizer.ggml.scores': { type: 'array', itemType: 'f32', value: tokens.map((_, id) => (types[id] === 1 ? -id : 0)) },
      'tokenizer.ggml.token_type': { type: 'array', itemType: 'i32', value: types },
      'tokenizer.ggml.bos_token_id': u32(1),
      'tokenizer.ggml.eos_token_id': u32(tokens.indexOf('<|endoftext|>')),
    };
  }
  const tokens = tinyVocabulary();
  for (let i = tokens.length; i < VOCAB; i++) tokens.push(`<filler${i}>`);
  return {
    'tokenizer.ggml.model': { type: 'string', value: 'gpt2' },
    'tokenizer.ggml.pre': { type: 'string', value: 'smollm' },
    'tokenizer.ggml.tokens': { type: 'array', itemType: 'string', value: tokens },
    'tokenizer.ggml.token_type': { type: 'array', itemType: 'i32', value: tokens.map((_, id) => (id === 258 || id === 259 ? 3 : 1)) },
    'tokenizer.ggml.merges': { type: 'array', itemType: 'string', value: ['h e', 'l l'] },
    'tokenizer.ggml.bos_token_id': u32(258),
    'tokenizer.ggml.eos_token_id': u32(259),
  };
}

/** The model's GGUF: `types` for its matrices and embedding, one type for all or one per tensor. */
export function syntheticGguf(model: SyntheticModel, types: GgmlType | TypeOf, options: SyntheticOptions = {}): Buffer {
  return syntheticGgufs(model, types, options).gguf;
}

/**
 * The model's GGUF, and `exact`: the same model with every weight as F32 holding exactly the
 * value its type stores, which llama.cpp multiplies in fp32 (it rounds the activations for
 * quantised types). Quantised once for both.
 */
export function syntheticGgufs(
  model: SyntheticModel,
  types: GgmlType | TypeOf,
  options: SyntheticOptions = {},
): { gguf: Buffer; exact: Buffer } {
  const shape = SHAPES[model];
  const arch = shape.architecture;
  const hidden = options.hidden ?? 128;
  const ffn = options.ffn ?? 2 * hidden;
  const typeOf: TypeOf = typeof types === 'function' ? types : () => types;
  const random = seededRandom(options.seed ?? 1);
  const values = (count: number, scale: number, offset = 0) =>
    Float32Array.from({ length: count }, () => offset + (random() * 2 - 1) * scale);
  const headDim = shape.headDim ?? hidden / shape.heads;
  const qWidth = shape.heads * headDim;
  const kvWidth = shape.kvHeads * headDim;
  const gemma = arch.startsWith('gemma');
  const tensors: RawTensorSpec[] = [];
  const f32 = (data: Float32Array) => new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const weight = (name: string, k: number, n: number, scale: number) => {
    const type = typeOf(name, k);
    const data = values(k * n, scale);
    tensors.push({ name, dims: [k, n], type, bytes: type === GgmlType.F32 ? f32(data) : quantize(type, data) });
  };
  const matrix = (name: string, k: number, n: number) => weight(name, k, n, 1 / Math.sqrt(k));
  const vector = (name: string, length: number, scale = 0.2, offset = 1) =>
    tensors.push({ name, dims: [length], type: GgmlType.F32, bytes: f32(values(length, scale, offset)) });
  // Gemma scales the embedding by √hidden, so its rows are drawn that much smaller.
  weight('token_embd.weight', hidden, VOCAB, gemma ? 1 / Math.sqrt(hidden) : 1);
  if (model === 'llama3.1')
    tensors.push({ name: 'rope_freqs.weight', dims: [headDim / 2], type: GgmlType.F32, bytes: f32(ropeFactors(headDim / 2)) });
  for (let l = 0; l < shape.layers; l++) {
    const at = (name: string, suffix = 'weight') => `blk.${l}.${name}.${suffix}`;
    vector(at('attn_norm'), hidden);
    if (arch === 'phi3') matrix(at('attn_qkv'), hidden, qWidth + 2 * kvWidth);
    else {
      matrix(at('attn_q'), hidden, qWidth);
      matrix(at('attn_k'), hidden, kvWidth);
      matrix(at('attn_v'), hidden, kvWidth);
    }
    if (arch === 'qwen2') {
      vector(at('attn_q', 'bias'), qWidth, 0.5, 0);
      vector(at('attn_k', 'bias'), kvWidth, 0.5, 0);
      vector(at('attn_v', 'bias'), kvWidth, 0.5, 0);
    }
    if (arch === 'qwen3' || arch === 'gemma3') {
      vector(at('attn_q_norm'), headDim);
      vector(at('attn_k_norm'), headDim);
    }
    matrix(at('attn_output'), qWidth, hidden);
    if (gemma) vector(at('post_attention_norm'), hidden);
    vector(at('ffn_norm'), hidden);
    if (arch === 'phi3') matrix(at('ffn_up'), hidden, 2 * ffn);
    else {
      matrix(at('ffn_gate'), hidden, ffn);
      matrix(at('ffn_up'), hidden, ffn);
    }
    matrix(at('ffn_down'), ffn, hidden);
    if (gemma) vector(at('post_ffw_norm'), hidden);
  }
  vector('output_norm.weight', hidden);
  if (!shape.tied) matrix('output.weight', hidden, VOCAB);

  const u32 = (value: number): MetaValue => ({ type: 'u32', value });
  const float = (value: number): MetaValue => ({ type: 'f32', value });
  const metadata: Record<string, MetaValue> = {
    'general.architecture': { type: 'string', value: arch },
    'general.name': { type: 'string', value: `synthetic ${model}` },
    [`${arch}.block_count`]: u32(shape.layers),
    [`${arch}.context_length`]: u32(SYNTHETIC_CONTEXT),
    [`${arch}.embedding_length`]: u32(hidden),
    [`${arch}.feed_forward_length`]: u32(ffn),
    [`${arch}.attention.head_count`]: u32(shape.heads),
    [`${arch}.attention.head_count_kv`]: u32(shape.kvHeads),
    [`${arch}.rope.freq_base`]: float(shape.ropeBase),
    [`${arch}.attention.layer_norm_rms_epsilon`]: float(1e-6),
    ...(shape.headDim ? { [`${arch}.attention.key_length`]: u32(headDim), [`${arch}.attention.value_length`]: u32(headDim) } : {}),
    ...(gemma ? { [`${arch}.attention.sliding_window`]: u32(WINDOW) } : {}),
    ...(arch === 'gemma2' ? { 'gemma2.attn_logit_softcapping': float(50), 'gemma2.final_logit_softcapping': float(30) } : {}),
    ...vocabulary(shape.sentencePiece === true),
  };
  const gguf = writeGguf(metadata, tensors);
  if (tensors.every((t) => t.type === GgmlType.F32)) return { gguf, exact: gguf };
  const exact = tensors.map((t) => {
    if (t.type === GgmlType.F32) return t;
    const count = t.dims.reduce((a, b) => a * b, 1);
    return { ...t, type: GgmlType.F32, bytes: f32(dequantize(t.type, t.bytes, count)) };
  });
  return { gguf, exact: writeGguf(metadata, exact) };
}
