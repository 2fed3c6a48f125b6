/**
 * Each architecture the packer takes, as its differences from llama: which tensors a layer
 * has and which graph options it needs. Everything else (metadata keys, the graph) is shared.
 * What llama.cpp hard-codes for an architecture rather than reading it from the GGUF (Gemma's
 * sliding-window layout, its local rope base, its soft-capping defaults) is written here,
 * with the same values, so both engines run the same model.
 */
import { MODEL_ARCHITECTURES, type ModelArchitecture } from '@meshwork/contracts';

export interface Architecture {
  /**
   * ggml's rope mode: llama rotates adjacent pairs (its converter permutes q and k for that),
   * the others rotate the first half of a head against the second (NEOX).
   */
  rotaryInterleaved: boolean;
  /** q, k and v have biases (`attn_q.bias`…). */
  qkvBias: boolean;
  /** An RMS norm over each head of q and of k, before rope (`attn_q_norm`, `attn_k_norm`). */
  qkNorm: boolean;
  /** An RMS norm after each branch too, before its residual add (`post_attention_norm`, `post_ffw_norm`). */
  postNorms: boolean;
  /** The gate's activation: SiLU (SwiGLU) or GELU's tanh approximation (GeGLU). */
  activation: 'silu' | 'gelu-tanh';
  /** Gate and up are one tensor, `ffn_up` of 2·ffn outputs, gate first. */
  fusedGateUp: boolean;
  /** The token embedding is multiplied by √hidden. */
  scaleEmbedding: boolean;
  /** A `rope_freqs` tensor, when present, divides each rotary frequency (Llama 3.1 and 3.2). */
  ropeFactors: boolean;
  /**
   * Sliding-window layers: all but every `pattern`-th layer (counted from 1) see only the last
   * `window` positions (the GGUF's `attention.sliding_window`, or `defaultWindow` when it states
   * none); `localRope` replaces the rope base and scale in them when set.
   */
  sliding?: { pattern: number; defaultWindow?: number; localRope?: { base: number; scale: number } };
  /** Soft-capping defaults, used when the GGUF states none: `c·tanh(x/c)`. */
  softcap?: { attention: number; final: number };
  /** Layer counts of the sizes whose queries llama.cpp scales by 1/√(hidden/heads) rather than 1/√headDim (the 27B Gemmas). */
  hiddenScaledQueries?: readonly number[];
}

const LLAMA: Architecture = {
  rotaryInterleaved: true,
  qkvBias: false,
  qkNorm: false,
  postNorms: false,
  activation: 'silu',
  fusedGateUp: false,
  scaleEmbedding: false,
  ropeFactors: true,
};
const NEOX: Architecture = { ...LLAMA, rotaryInterleaved: false, ropeFactors: false };
const GEMMA: Architecture = { ...NEOX, postNorms: true, activation: 'gelu-tanh', scaleEmbedding: true };

export const ARCHITECTURES: Record<ModelArchitecture, Architecture> = {
  llama: LLAMA,
  qwen2: { ...NEOX, qkvBias: true },
  qwen3: { ...NEOX, qkNorm: true },
  gemma2: {
    ...GEMMA,
    sliding: { pattern: 2, defaultWindow: 4096 },
    softcap: { attention: 50, final: 30 },
    hiddenScaledQueries: [46],
  },
  gemma3: { ...GEMMA, qkNorm: true, sliding: { pattern: 6, localRope: { base: 10_000, scale: 1 } }, hiddenScaledQueries: [62] },
  phi3: { ...NEOX, fusedGateUp: true },
};

/** The architecture of `name` (a GGUF's `general.architecture`), or an error listing those supported. */
export function architecture(name: string): { name: ModelArchitecture; description: Architecture } {
  if (!(MODEL_ARCHITECTURES as readonly string[]).includes(name)) {
    throw new Error(`Models of architecture "${name}" cannot be packed; supported: ${MODEL_ARCHITECTURES.join(', ')}`);
  }
  return { name: name as ModelArchitecture, description: ARCHITECTURES[name as ModelArchitecture] };
}
