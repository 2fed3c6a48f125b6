/**
 * A Hugging Face `config.json` as the GGUF metadata llama.cpp's converter (convert_hf_to_gguf.py)
 * writes for it: the architecture, named as the packer's table names it, and its hyper-parameters
 * under that architecture's keys, so model-config.ts reads both kinds of input the same way.
 */
import { MODEL_ARCHITECTURES, type ModelArchitecture } from '@meshwork/contracts';
import type { GgufValue } from '../gguf';

/** HF class names (`architectures`) and `model_type`s, and the packer's architecture for each. */
const BY_HF_NAME: Record<string, ModelArchitecture> = {
  LlamaForCausalLM: 'llama',
  MistralForCausalLM: 'llama',
  llama: 'llama',
  mistral: 'llama',
  Qwen2ForCausalLM: 'qwen2',
  qwen2: 'qwen2',
  Qwen3ForCausalLM: 'qwen3',
  qwen3: 'qwen3',
  Gemma2ForCausalLM: 'gemma2',
  gemma2: 'gemma2',
  Gemma3ForCausalLM: 'gemma3',
  Gemma3ForConditionalGeneration: 'gemma3',
  gemma3: 'gemma3',
  gemma3_text: 'gemma3',
  Phi3ForCausalLM: 'phi3',
  phi3: 'phi3',
};

/**
 * What transformers fills in when a config leaves a field out: Gemma 3's multimodal configs state
 * few of their text model's fields (Gemma3TextConfig's defaults).
 */
const TEXT_DEFAULTS: Partial<Record<ModelArchitecture, Record<string, unknown>>> = {
  gemma3: {
    num_attention_heads: 8,
    num_key_value_heads: 4,
    head_dim: 256,
    rope_theta: 1_000_000,
    rms_norm_eps: 1e-6,
    sliding_window: 4096,
    max_position_embeddings: 131_072,
  },
};

export interface HfConfig {
  architecture: ModelArchitecture;
  /** The text model's hyper-parameters (Gemma 3's multimodal configs nest them in `text_config`). */
  text: Record<string, unknown>;
  /** GGUF metadata for the model's shape, under `<architecture>.`. */
  metadata: Map<string, GgufValue>;
}

function number(text: Record<string, unknown>, key: string): number {
  const value = text[key];
  if (typeof value !== 'number') throw new Error(`config.json has no number ${key}`);
  return value;
}

/** Llama 3.1's rope frequency factors, which its converter computes from `rope_scaling` (LlamaModel.generate_extra_tensors). */
export function llama3RopeFactors(text: Record<string, unknown>, headDim: number): Float32Array | undefined {
  const scaling = text.rope_scaling as Record<string, number | string> | undefined;
  if (!scaling || (scaling.rope_type ?? scaling.type) !== 'llama3') return undefined;
  const base = Number(text.rope_theta ?? 10000);
  const factor = Number(scaling.factor ?? 8);
  const low = Number(scaling.low_freq_factor ?? 1);
  const high = Number(scaling.high_freq_factor ?? 4);
  const original = Number(scaling.original_max_position_embeddings ?? 8192);
  const lowWavelength = original / low;
  const highWavelength = original / high;
  return Float32Array.from({ length: headDim / 2 }, (_, i) => {
    const wavelength = (2 * Math.PI) / base ** (-(2 * i) / headDim);
    if (wavelength < highWavelength) return 1;
    if (wavelength > lowWavelength) return factor;
    const smooth = (original / wavelength - low) / (high - low);
    return 1 / ((1 - smooth) / factor + smooth);
  });
}

export function hfConfig(config: Record<string, unknown>): HfConfig {
  const names = [...((config.architectures as unknown[] | undefined) ?? []), config.model_type].filter((n) => typeof n === 'string');
  const found = names.map((name) => BY_HF_NAME[name as string]).find((a) => a !== undefined);
  if (!found)
    throw new Error(
      `Models of architecture ${names.map((n) => `"${String(n)}"`).join(' / ') || '(none stated)'} cannot be packed; supported: ${MODEL_ARCHITECTURES.join(', ')} (HF: ${Object.keys(BY_HF_NAME).join(', ')})`,
    );
  const text = { ...TEXT_DEFAULTS[found], ...((config.text_config as Record<string, unknown> | undefined) ?? config) };
  const metadata = new Map<string, GgufValue>();
  const set = (key: string, value: GgufValue | undefined) => value !== undefined && metadata.set(`${found}.${key}`, value);
  const heads = number(text, 'num_attention_heads');
  const hidden = number(text, 'hidden_size');
  set('block_count', number(text, 'num_hidden_layers'));
  set('context_length', number(text, 'max_position_embeddings'));
  set('embedding_length', hidden);
  set('feed_forward_length', number(text, 'intermediate_size'));
  set('attention.head_count', heads);
  set('attention.head_count_kv', (text.num_key_value_heads as number | undefined) ?? heads);
  set('rope.freq_base', (text.rope_theta as number | undefined) ?? 10000);
  set('attention.layer_norm_rms_epsilon', (text.rms_norm_eps as number | undefined) ?? 1e-6);
  if (typeof text.head_dim === 'number') {
    set('attention.key_length', text.head_dim);
    set('attention.value_length', text.head_dim);
  }
  // Stated so that model-config.ts refuses partial rotary embeddings (Phi-4-mini's 0.75) as it does a GGUF's.
  if (typeof text.partial_rotary_factor === 'number')
    set('rope.dimension_count', Math.round(text.partial_rotary_factor * ((text.head_dim as number | undefined) ?? hidden / heads)));
  if (typeof text.sliding_window === 'number' && found.startsWith('gemma')) set('attention.sliding_window', text.sliding_window);
  if (found === 'gemma2') {
    set('attn_logit_softcapping', text.attn_logit_softcapping as number | undefined);
    set('final_logit_softcapping', text.final_logit_softcapping as number | undefined);
  }
  const scaling = text.rope_scaling as Record<string, unknown> | null | undefined;
  const scalingType = scaling && (scaling.rope_type ?? scaling.type);
  if (scalingType === 'linear') {
    set('rope.scaling.type', 'linear');
    set('rope.scaling.factor', Number(scaling!.factor));
  } else if (scalingType && scalingType !== 'default' && !(scalingType === 'llama3' && found === 'llama')) {
    throw new Error(`Rope scaling "${String(scalingType)}" (config.json rope_scaling) is not supported (only linear, and llama3's)`);
  }
  metadata.set('general.architecture', found);
  return { architecture: found, text, metadata };
}
