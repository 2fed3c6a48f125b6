/**
 * Hugging Face tensor names and layouts as GGUF's (llama.cpp's gguf-py tensor_mapping.py and
 * convert_hf_to_gguf.py): the name each tensor takes, and what changes on the way.
 * - llama's q and k rows are permuted: HF rotates the first half of each head against the second,
 *   llama.cpp (rope mode 0) rotates adjacent pairs, so row 2i+j of a GGUF head is HF row j·half+i.
 * - Gemma's norms compute x·(1+w) in HF and x·w in llama.cpp, so GGUF holds 1+w.
 * - Phi-3's fused qkv and gate-up keep their fused form (`attn_qkv`, `ffn_up` gate first).
 * Shapes need no change: HF's [out, in] row-major is ggml's [in, out], byte for byte.
 */
import type { ModelArchitecture } from '@meshwork/contracts';

const LAYER: Record<string, string> = {
  'input_layernorm.weight': 'attn_norm.weight',
  'self_attn.q_proj.weight': 'attn_q.weight',
  'self_attn.k_proj.weight': 'attn_k.weight',
  'self_attn.v_proj.weight': 'attn_v.weight',
  'self_attn.q_proj.bias': 'attn_q.bias',
  'self_attn.k_proj.bias': 'attn_k.bias',
  'self_attn.v_proj.bias': 'attn_v.bias',
  'self_attn.qkv_proj.weight': 'attn_qkv.weight',
  'self_attn.o_proj.weight': 'attn_output.weight',
  'self_attn.q_norm.weight': 'attn_q_norm.weight',
  'self_attn.k_norm.weight': 'attn_k_norm.weight',
  'mlp.gate_proj.weight': 'ffn_gate.weight',
  'mlp.up_proj.weight': 'ffn_up.weight',
  'mlp.gate_up_proj.weight': 'ffn_up.weight',
  'mlp.down_proj.weight': 'ffn_down.weight',
  'pre_feedforward_layernorm.weight': 'ffn_norm.weight',
  'post_feedforward_layernorm.weight': 'post_ffw_norm.weight',
};

const GLOBAL: Record<string, string> = {
  'embed_tokens.weight': 'token_embd.weight',
  'norm.weight': 'output_norm.weight',
};

/** Where a text model's tensors sit: `model.`, or under a multimodal checkpoint's language model. */
const PREFIXES = ['model.language_model.', 'language_model.model.', 'model.'];

/** The GGUF name of an HF tensor, or undefined for tensors the packer does not use (vision towers, rotary caches). */
export function ggufTensorName(hfName: string, architecture: ModelArchitecture): string | undefined {
  if (hfName === 'lm_head.weight' || hfName === 'language_model.lm_head.weight') return 'output.weight';
  const prefix = PREFIXES.find((p) => hfName.startsWith(p));
  if (!prefix) return undefined;
  const rest = hfName.slice(prefix.length);
  if (GLOBAL[rest]) return GLOBAL[rest];
  const layer = /^layers\.(\d+)\.(.+)$/.exec(rest);
  if (!layer) return undefined;
  const [, index, part] = layer as unknown as [string, string, string];
  // Gemma normalises after attention (`post_attention_norm`) and before the FFN; the others' post-attention norm is the FFN's.
  if (part === 'post_attention_layernorm.weight')
    return `blk.${index}.${architecture.startsWith('gemma') ? 'post_attention_norm' : 'ffn_norm'}.weight`;
  return LAYER[part] && `blk.${index}.${LAYER[part]}`;
}

/** llama.cpp's permute for llama's q and k: each head's halves interleaved into adjacent pairs. */
export function interleaveHeads(rows: Float32Array, heads: number, rowLength: number): Float32Array {
  const headRows = rows.length / rowLength / heads;
  const half = headRows / 2;
  const out = new Float32Array(rows.length);
  for (let h = 0; h < heads; h++) {
    for (let i = 0; i < half; i++) {
      for (let j = 0; j < 2; j++) {
        const from = (h * headRows + j * half + i) * rowLength;
        out.set(rows.subarray(from, from + rowLength), (h * headRows + 2 * i + j) * rowLength);
      }
    }
  }
  return out;
}

/** The change a tensor needs on its way into GGUF, applied to its float32 values in place or anew. */
export function toGgufLayout(
  ggufName: string,
  values: Float32Array,
  architecture: ModelArchitecture,
  shape: { heads: number; kvHeads: number; hidden: number },
): Float32Array {
  if (architecture === 'llama' && ggufName.endsWith('attn_q.weight')) return interleaveHeads(values, shape.heads, shape.hidden);
  if (architecture === 'llama' && ggufName.endsWith('attn_k.weight')) return interleaveHeads(values, shape.kvHeads, shape.hidden);
  if (architecture.startsWith('gemma') && ggufName.endsWith('norm.weight')) return values.map((w) => 1 + w);
  return values;
}
