import { hfConfig, llama3RopeFactors } from './hf-config';

const shape = { hidden_size: 256, intermediate_size: 512, num_hidden_layers: 2, num_attention_heads: 4, max_position_embeddings: 1024 };

describe('config.json as GGUF metadata', () => {
  it('maps Mistral onto llama, with its hyper-parameters under llama.*', () => {
    const { architecture, metadata } = hfConfig({
      architectures: ['MistralForCausalLM'],
      ...shape,
      num_key_value_heads: 2,
      rope_theta: 1e6,
    });
    expect(architecture).toBe('llama');
    expect(Object.fromEntries(metadata)).toMatchObject({
      'general.architecture': 'llama',
      'llama.embedding_length': 256,
      'llama.attention.head_count_kv': 2,
      'llama.rope.freq_base': 1e6,
      'llama.context_length': 1024,
    });
  });

  it("reads a multimodal Gemma 3's text_config, filling in what transformers defaults", () => {
    const { architecture, metadata } = hfConfig({
      architectures: ['Gemma3ForConditionalGeneration'],
      model_type: 'gemma3',
      text_config: { ...shape, rope_scaling: { rope_type: 'linear', factor: 8 } },
    });
    expect(architecture).toBe('gemma3');
    expect(Object.fromEntries(metadata)).toMatchObject({
      'gemma3.rope.freq_base': 1_000_000,
      'gemma3.attention.key_length': 256,
      'gemma3.attention.sliding_window': 4096,
      'gemma3.rope.scaling.type': 'linear',
      'gemma3.rope.scaling.factor': 8,
    });
  });

  it('refuses rope scaling it cannot apply', () => {
    expect(() => hfConfig({ model_type: 'qwen2', ...shape, rope_scaling: { type: 'yarn', factor: 4 } })).toThrow(
      'Rope scaling "yarn" (config.json rope_scaling) is not supported',
    );
  });

  it("computes Llama 3.1's rope factors: 1 for fast frequencies, the factor for slow ones, smooth between", () => {
    const factors = llama3RopeFactors(
      {
        rope_theta: 500_000,
        rope_scaling: { rope_type: 'llama3', factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 8192 },
      },
      128,
    )!;
    expect(factors).toHaveLength(64);
    expect(factors[0]).toBe(1);
    expect(factors[63]).toBe(8);
    const between = [...factors].filter((f) => f > 1 && f < 8);
    expect(between.length).toBeGreaterThan(0);
    expect([...factors].every((f, i) => i === 0 || f >= factors[i - 1]!)).toBe(true);
  });
});
