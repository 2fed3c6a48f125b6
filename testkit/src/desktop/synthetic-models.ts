/**
 * Small random-weight models of every architecture the packer takes, with each one's real
 * structure (tensor names, fused tensors, biases, q/k norms, post-norms, key_length wider than
 * hidden/heads, sliding windows, soft-capping, rope frequency factors), written as GGUF so
 * llama.cpp and the packer read the same file. Weights are F32 or Q8_0; norms and biases F32.
 */
import { seededRandom } from '../../../desktop/src/engine/sampler';
import { GgmlType } from '../../../desktop/src/pack/quant';
import { writeGguf, type MetaValue, type TensorSpec } from './tiny-gguf';
import { tinyVocabulary } from './tiny-llama';

/** The architectures, and llama's variants that differ in what they hold. */
export const SYNTHETIC_MODELS = ['llama', 'llama3.1', 'mistral', 'qwen2', 'qwen3', 'gemma2', 'gemma3', 'phi3'] as const;
export type SyntheticModel = (typeof SYNTHETIC_MODELS)[number];

interface Shape {
  architecture: string;
  layers: number;
  heads: number;
  kvHeads: number;
  /** key_length, when it is not hidden/heads. */
  headDim?: number;
  tied: boolean;
  ropeBase: number;
}

const HIDDEN = 128;
const FFN = 256;
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
  phi3: { architecture: 'phi3', layers: 3, heads: 4, kvHeads: 4, tied: false, ropeBase: 10000 },
};

/** Llama 3.1's rope factors have this form: 1 for fast frequencies, up to 8 for slow ones. */
function ropeFactors(count: number): Float32Array {
  return Float32Array.from({ length: count }, (_, i) => 1 + (7 * i) / (count - 1));
}

/** The model's GGUF: `type` for its matrices and embedding (F32 or Q8_0). */
export function syntheticGguf(model: SyntheticModel, type: GgmlType, seed = 1): Buffer {
  const shape = SHAPES[model];
  const arch = shape.architecture;
  const random = seededRandom(seed);
  const values = (count: number, scale: number, offset = 0) =>
    Float32Array.from({ length: count }, () => offset + (random() * 2 - 1) * scale);
  const headDim = shape.headDim ?? HIDDEN / shape.heads;
  const qWidth = shape.heads * headDim;
  const kvWidth = shape.kvHeads * headDim;
  const gemma = arch.startsWith('gemma');
  const tensors: TensorSpec[] = [];
  const matrix = (name: string, k: number, n: number) => tensors.push({ name, dims: [k, n], type, data: values(k * n, 1 / Math.sqrt(k)) });
  const vector = (name: string, length: number, scale = 0.2, offset = 1) =>
    tensors.push({ name, dims: [length], type: GgmlType.F32, data: values(length, scale, offset) });
  // Gemma scales the embedding by √hidden, so its rows are drawn that much smaller.
  tensors.push({
    name: 'token_embd.weight',
    dims: [HIDDEN, VOCAB],
    type,
    data: values(HIDDEN * VOCAB, gemma ? 1 / Math.sqrt(HIDDEN) : 1),
  });
  if (model === 'llama3.1')
    tensors.push({ name: 'rope_freqs.weight', dims: [headDim / 2], type: GgmlType.F32, data: ropeFactors(headDim / 2) });
  for (let l = 0; l < shape.layers; l++) {
    const at = (name: string, suffix = 'weight') => `blk.${l}.${name}.${suffix}`;
    vector(at('attn_norm'), HIDDEN);
    if (arch === 'phi3') matrix(at('attn_qkv'), HIDDEN, qWidth + 2 * kvWidth);
    else {
      matrix(at('attn_q'), HIDDEN, qWidth);
      matrix(at('attn_k'), HIDDEN, kvWidth);
      matrix(at('attn_v'), HIDDEN, kvWidth);
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
    matrix(at('attn_output'), qWidth, HIDDEN);
    if (gemma) vector(at('post_attention_norm'), HIDDEN);
    vector(at('ffn_norm'), HIDDEN);
    if (arch === 'phi3') matrix(at('ffn_up'), HIDDEN, 2 * FFN);
    else {
      matrix(at('ffn_gate'), HIDDEN, FFN);
      matrix(at('ffn_up'), HIDDEN, FFN);
    }
    matrix(at('ffn_down'), FFN, HIDDEN);
    if (gemma) vector(at('post_ffw_norm'), HIDDEN);
  }
  vector('output_norm.weight', HIDDEN);
  if (!shape.tied) matrix('output.weight', HIDDEN, VOCAB);

  const u32 = (value: number): MetaValue => ({ type: 'u32', value });
  const f32 = (value: number): MetaValue => ({ type: 'f32', value });
  // llama.cpp looks Phi-3's end-of-turn tokens up by name when it loads a phi3 vocabulary.
  const tokens = [...tinyVocabulary(), '<|end|>', '<|endoftext|>'];
  for (let i = tokens.length; i < VOCAB; i++) tokens.push(`<filler${i}>`);
  const metadata: Record<string, MetaValue> = {
    'general.architecture': { type: 'string', value: arch },
    'general.name': { type: 'string', value: `synthetic ${model}` },
    [`${arch}.block_count`]: u32(shape.layers),
    [`${arch}.context_length`]: u32(SYNTHETIC_CONTEXT),
    [`${arch}.embedding_length`]: u32(HIDDEN),
    [`${arch}.feed_forward_length`]: u32(FFN),
    [`${arch}.attention.head_count`]: u32(shape.heads),
    [`${arch}.attention.head_count_kv`]: u32(shape.kvHeads),
    [`${arch}.rope.freq_base`]: f32(shape.ropeBase),
    [`${arch}.attention.layer_norm_rms_epsilon`]: f32(1e-6),
    ...(shape.headDim ? { [`${arch}.attention.key_length`]: u32(headDim), [`${arch}.attention.value_length`]: u32(headDim) } : {}),
    ...(gemma ? { [`${arch}.attention.sliding_window`]: u32(WINDOW) } : {}),
    ...(arch === 'gemma2' ? { 'gemma2.attn_logit_softcapping': f32(50), 'gemma2.final_logit_softcapping': f32(30) } : {}),
    'tokenizer.ggml.model': { type: 'string', value: 'gpt2' },
    'tokenizer.ggml.pre': { type: 'string', value: 'smollm' },
    'tokenizer.ggml.tokens': { type: 'array', itemType: 'string', value: tokens },
    'tokenizer.ggml.token_type': { type: 'array', itemType: 'i32', value: tokens.map((_, id) => (id >= 258 && id <= 261 ? 3 : 1)) },
    'tokenizer.ggml.merges': { type: 'array', itemType: 'string', value: ['h e', 'l l'] },
    'tokenizer.ggml.bos_token_id': u32(258),
    'tokenizer.ggml.eos_token_id': u32(259),
  };
  return writeGguf(metadata, tensors);
}
