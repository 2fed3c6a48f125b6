/**
 * A tiny llama with random weights, written as GGUF: 3 layers, hidden 128, 4 heads over 2
 * key/value heads, a byte-level vocabulary of 260 tokens. Its matrices and embedding take any
 * of the types the packer reads, so every quantisation path is tested in milliseconds.
 */
import { seededRandom } from '../../../desktop/src/engine/sampler';
import { bytesToSymbols } from '../../../desktop/src/engine/tokenizer/byte-level';
import { GgmlType } from '../../../desktop/src/pack/quant';
import { writeGguf, type MetaValue, type TensorSpec } from './tiny-gguf';

export const TINY = { layers: 3, hidden: 128, heads: 4, kvHeads: 2, ffn: 256, context: 64 } as const;

export function tinyVocabulary(): string[] {
  return [...bytesToSymbols(Uint8Array.from({ length: 256 }, (_, i) => i)), 'he', 'll', '<|im_start|>', '<|im_end|>'];
}

/** A llama GGUF's metadata for its shape: what the packer and llama.cpp read of the architecture (rope base 10,000). */
export function llamaMetadata(
  name: string,
  shape: { layers: number; context: number; hidden: number; ffn: number; heads: number; kvHeads: number },
): Record<string, MetaValue> {
  const u32 = (value: number): MetaValue => ({ type: 'u32', value });
  return {
    'general.architecture': { type: 'string', value: 'llama' },
    'general.name': { type: 'string', value: name },
    'llama.block_count': u32(shape.layers),
    'llama.context_length': u32(shape.context),
    'llama.embedding_length': u32(shape.hidden),
    'llama.feed_forward_length': u32(shape.ffn),
    'llama.attention.head_count': u32(shape.heads),
    'llama.attention.head_count_kv': u32(shape.kvHeads),
    'llama.rope.freq_base': { type: 'f32', value: 10000 },
    'llama.attention.layer_norm_rms_epsilon': { type: 'f32', value: 1e-5 },
  };
}

export function tinyLlamaGguf(options: {
  matrices: GgmlType;
  embedding?: GgmlType;
  tied?: boolean;
  seed?: number;
  /** More metadata (a name, sampling defaults), over the tiny model's own. */
  metadata?: Record<string, MetaValue>;
}): Buffer {
  const { layers, hidden, heads, kvHeads, ffn } = TINY;
  const random = seededRandom(options.seed ?? 1);
  const values = (count: number, scale: number, offset = 0) =>
    Float32Array.from({ length: count }, () => offset + (random() * 2 - 1) * scale);
  const tokens = tinyVocabulary();
  const vocab = tokens.length;
  const kv = (hidden / heads) * kvHeads;
  const tensors: TensorSpec[] = [
    { name: 'token_embd.weight', dims: [hidden, vocab], type: options.embedding ?? options.matrices, data: values(hidden * vocab, 1) },
  ];
  const matrix = (name: string, k: number, n: number) =>
    tensors.push({ name, dims: [k, n], type: options.matrices, data: values(k * n, 1 / Math.sqrt(k)) });
  for (let l = 0; l < layers; l++) {
    tensors.push({ name: `blk.${l}.attn_norm.weight`, dims: [hidden], type: GgmlType.F32, data: values(hidden, 0.2, 1) });
    matrix(`blk.${l}.attn_q.weight`, hidden, hidden);
    matrix(`blk.${l}.attn_k.weight`, hidden, kv);
    matrix(`blk.${l}.attn_v.weight`, hidden, kv);
    matrix(`blk.${l}.attn_output.weight`, hidden, hidden);
    tensors.push({ name: `blk.${l}.ffn_norm.weight`, dims: [hidden], type: GgmlType.F32, data: values(hidden, 0.2, 1) });
    matrix(`blk.${l}.ffn_gate.weight`, hidden, ffn);
    matrix(`blk.${l}.ffn_up.weight`, hidden, ffn);
    matrix(`blk.${l}.ffn_down.weight`, ffn, hidden);
  }
  tensors.push({ name: 'output_norm.weight', dims: [hidden], type: GgmlType.F32, data: values(hidden, 0.2, 1) });
  if (options.tied === false) matrix('output.weight', hidden, vocab);
  const metadata: Record<string, MetaValue> = {
    ...llamaMetadata('tiny', TINY),
    'tokenizer.ggml.model': { type: 'string', value: 'gpt2' },
    'tokenizer.ggml.pre': { type: 'string', value: 'smollm' },
    'tokenizer.ggml.tokens': { type: 'array', itemType: 'string', value: tokens },
    'tokenizer.ggml.token_type': { type: 'array', itemType: 'i32', value: tokens.map((_, id) => (id >= 258 ? 3 : 1)) },
    'tokenizer.ggml.merges': { type: 'array', itemType: 'string', value: ['h e', 'l l'] },
    'tokenizer.ggml.bos_token_id': { type: 'u32', value: 258 },
    'tokenizer.ggml.eos_token_id': { type: 'u32', value: 259 },
    'tokenizer.chat_template': {
      type: 'string',
      value: "{% for m in messages %}{{ '<|im_start|>' + m.role + '\\n' + m.content + '<|im_end|>' }}{% endfor %}",
    },
  };
  return writeGguf({ ...metadata, ...options.metadata }, tensors);
}
