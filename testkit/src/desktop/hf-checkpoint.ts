/**
 * Writes a GGUF model's weights as a Hugging Face checkpoint folder, in HF's own names and
 * layouts (as transformers would save it): `config.json`, sharded `*.safetensors` with
 * `model.safetensors.index.json`, `tokenizer.json` and `tokenizer_config.json`. So a test can
 * pack the same model from both and compare. The layouts are undone from GGUF's by their
 * definitions, not by the packer's code:
 * - llama's q and k: HF rotates element i of a head against i+half; GGUF (rope mode 0) element 2i
 *   against 2i+1. So GGUF row 2i+j of a head is HF row j·half+i.
 * - Gemma's norms: HF stores w and computes x·(1+w); GGUF stores 1+w.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { metaArray, metaNumber, metaString, readGguf, readTensorBytes, type GgufFile } from '../../../desktop/src/pack/gguf';
import { dequantize } from '../../../desktop/src/pack/quant';

const LAYER: Record<string, string> = {
  attn_norm: 'input_layernorm',
  attn_q: 'self_attn.q_proj',
  attn_k: 'self_attn.k_proj',
  attn_v: 'self_attn.v_proj',
  attn_qkv: 'self_attn.qkv_proj',
  attn_output: 'self_attn.o_proj',
  attn_q_norm: 'self_attn.q_norm',
  attn_k_norm: 'self_attn.k_norm',
  post_attention_norm: 'post_attention_layernorm',
  post_ffw_norm: 'post_feedforward_layernorm',
  ffn_gate: 'mlp.gate_proj',
  ffn_down: 'mlp.down_proj',
};
const CLASSES: Record<string, string> = {
  llama: 'LlamaForCausalLM',
  qwen2: 'Qwen2ForCausalLM',
  qwen3: 'Qwen3ForCausalLM',
  gemma2: 'Gemma2ForCausalLM',
  gemma3: 'Gemma3ForCausalLM',
  phi3: 'Phi3ForCausalLM',
};

function hfName(name: string, arch: string): string {
  if (name === 'token_embd.weight') return 'model.embed_tokens.weight';
  if (name === 'output_norm.weight') return 'model.norm.weight';
  if (name === 'output.weight') return 'lm_head.weight';
  const [, layer, part, suffix] = /^blk\.(\d+)\.(\w+)\.(weight|bias)$/.exec(name) ?? [];
  if (!part) throw new Error(`no HF name for ${name}`);
  const gemma = arch.startsWith('gemma');
  const mapped =
    part === 'ffn_norm'
      ? gemma
        ? 'pre_feedforward_layernorm'
        : 'post_attention_layernorm'
      : part === 'ffn_up'
        ? arch === 'phi3'
          ? 'mlp.gate_up_proj'
          : 'mlp.up_proj'
        : LAYER[part];
  if (!mapped) throw new Error(`no HF name for ${name}`);
  return `model.layers.${layer}.${mapped}.${suffix}`;
}

/** GGUF's interleaved pairs back to HF's halves, head by head. */
function halvesFromPairs(rows: Float32Array, heads: number, rowLength: number): Float32Array {
  const headRows = rows.length / rowLength / heads;
  const half = headRows / 2;
  const out = new Float32Array(rows.length);
  for (let h = 0; h < heads; h++)
    for (let i = 0; i < half; i++)
      for (let j = 0; j < 2; j++) {
        const gguf = (h * headRows + 2 * i + j) * rowLength;
        out.set(rows.subarray(gguf, gguf + rowLength), (h * headRows + j * half + i) * rowLength);
      }
  return out;
}

/** One safetensors file of F32 tensors. */
function safetensors(tensors: { name: string; shape: number[]; values: Float32Array }[]): Buffer {
  const header: Record<string, unknown> = { __metadata__: { format: 'pt' } };
  let offset = 0;
  for (const t of tensors) {
    header[t.name] = { dtype: 'F32', shape: t.shape, data_offsets: [offset, offset + t.values.byteLength] };
    offset += t.values.byteLength;
  }
  const json = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(json.length));
  return Buffer.concat([length, json, ...tensors.map((t) => Buffer.from(t.values.buffer, t.values.byteOffset, t.values.byteLength))]);
}

function config(file: GgufFile): Record<string, unknown> {
  const arch = metaString(file, 'general.architecture');
  const has = (key: string) => file.metadata.has(`${arch}.${key}`);
  const n = (key: string) => metaNumber(file, `${arch}.${key}`);
  const optional = (key: string, as: string) => (has(key) ? { [as]: n(key) } : {});
  return {
    architectures: [CLASSES[arch]],
    model_type: arch === 'gemma3' ? 'gemma3_text' : arch,
    hidden_size: n('embedding_length'),
    intermediate_size: n('feed_forward_length'),
    num_hidden_layers: n('block_count'),
    num_attention_heads: n('attention.head_count'),
    num_key_value_heads: n('attention.head_count_kv'),
    max_position_embeddings: n('context_length'),
    rms_norm_eps: n('attention.layer_norm_rms_epsilon'),
    rope_theta: n('rope.freq_base'),
    ...optional('attention.key_length', 'head_dim'),
    ...optional('attention.sliding_window', 'sliding_window'),
    ...optional('attn_logit_softcapping', 'attn_logit_softcapping'),
    ...optional('final_logit_softcapping', 'final_logit_softcapping'),
    vocab_size: metaArray(file, 'tokenizer.ggml.tokens').length,
    tie_word_embeddings: !file.tensors.has('output.weight'),
    torch_dtype: 'float32',
  };
}

/**
 * The GGUF's vocabulary as a tokenizer.json: byte-level BPE as SmolLM's (digits split one by one,
 * then GPT-2's ByteLevel), or SentencePiece as HF converts it (BPE with byte fallback, `▁` prepended;
 * no merges, so the pieces' scores are not carried over).
 */
function tokenizer(file: GgufFile): { tokenizer: unknown; tokenizerConfig: unknown } {
  const spm = metaString(file, 'tokenizer.ggml.model') === 'llama';
  if (!spm && metaString(file, 'tokenizer.ggml.pre') !== 'smollm')
    throw new Error('hf-checkpoint writes SentencePiece and byte-level (smollm) vocabularies only');
  const tokens = metaArray(file, 'tokenizer.ggml.tokens') as string[];
  const types = metaArray(file, 'tokenizer.ggml.token_type').map(Number);
  const isSpecial = (id: number) => types[id] === 2 || types[id] === 3;
  const special = tokens.map((content, id) => ({ id, content, special: true })).filter(({ id }) => isSpecial(id));
  const byteLevel = { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true };
  const id = (key: string) => (file.metadata.has(key) ? tokens[metaNumber(file, key)] : undefined);
  return {
    tokenizer: {
      version: '1.0',
      added_tokens: special.map((t) => ({ ...t, single_word: false, lstrip: false, rstrip: false, normalized: false })),
      normalizer: spm
        ? {
            type: 'Sequence',
            normalizers: [
              { type: 'Prepend', prepend: '▁' },
              { type: 'Replace', pattern: { String: ' ' }, content: '▁' },
            ],
          }
        : null,
      pre_tokenizer: spm ? null : { type: 'Sequence', pretokenizers: [{ type: 'Digits', individual_digits: true }, byteLevel] },
      post_processor: spm ? null : byteLevel,
      decoder: spm ? { type: 'Sequence', decoders: [{ type: 'ByteFallback' }] } : byteLevel,
      model: {
        type: 'BPE',
        byte_fallback: spm,
        vocab: Object.fromEntries(tokens.map((token, id) => [token, id]).filter(([, id]) => !isSpecial(id as number))),
        merges: spm ? [] : (metaArray(file, 'tokenizer.ggml.merges') as string[]).map((merge) => merge.split(' ')),
      },
    },
    tokenizerConfig: {
      bos_token: id('tokenizer.ggml.bos_token_id'),
      eos_token: id('tokenizer.ggml.eos_token_id'),
      ...(spm ? { unk_token: tokens[0] } : {}),
      ...(file.metadata.has('tokenizer.chat_template') ? { chat_template: metaString(file, 'tokenizer.chat_template') } : {}),
    },
  };
}

/** Writes `gguf`'s model (float weights) into `folder` as an HF checkpoint in `shards` safetensors files. */
export async function writeHfCheckpoint(gguf: string, folder: string, shards = 2): Promise<void> {
  const file = await readGguf(gguf);
  const arch = metaString(file, 'general.architecture');
  const heads = metaNumber(file, `${arch}.attention.head_count`);
  const kvHeads = metaNumber(file, `${arch}.attention.head_count_kv`);
  const tensors: { name: string; shape: number[]; values: Float32Array }[] = [];
  for (const info of file.tensors.values()) {
    const count = info.dims.reduce((a, b) => a * b, 1);
    let values = dequantize(info.type, await readTensorBytes(file, info), count);
    if (arch === 'llama' && info.name.endsWith('attn_q.weight')) values = halvesFromPairs(values, heads, info.dims[0]!);
    if (arch === 'llama' && info.name.endsWith('attn_k.weight')) values = halvesFromPairs(values, kvHeads, info.dims[0]!);
    if (arch.startsWith('gemma') && info.name.endsWith('norm.weight')) values = values.map((w) => w - 1);
    tensors.push({ name: hfName(info.name, arch), shape: [...info.dims].reverse(), values });
  }
  const weightMap: Record<string, string> = {};
  const per = Math.ceil(tensors.length / shards);
  for (let s = 0; s < shards; s++) {
    const name = `model-${String(s + 1).padStart(5, '0')}-of-${String(shards).padStart(5, '0')}.safetensors`;
    const part = tensors.slice(s * per, (s + 1) * per);
    for (const t of part) weightMap[t.name] = name;
    await writeFile(join(folder, name), safetensors(part));
  }
  await writeFile(join(folder, 'model.safetensors.index.json'), JSON.stringify({ metadata: {}, weight_map: weightMap }));
  await writeFile(join(folder, 'config.json'), JSON.stringify(config(file)));
  const { tokenizer: json, tokenizerConfig } = tokenizer(file);
  await writeFile(join(folder, 'tokenizer.json'), JSON.stringify(json));
  await writeFile(join(folder, 'tokenizer_config.json'), JSON.stringify(tokenizerConfig));
}
