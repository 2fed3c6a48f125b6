// A large random-weight llama written as GGUF straight to disk, tensor by tensor (the writer
// never holds more than a chunk): Q8_0 matrices and embedding (or any of Q8_0, Q5_0, Q4_K,
// Q6_K per tensor, e.g. llama.cpp's Q4_K_M recipe), F32 norms, a byte-level vocabulary. Its
// values mean nothing; packing and running cost the same for any finite values.
import { closeSync, openSync, writeSync } from 'node:fs';
import { randomFillSync } from 'node:crypto';

const ALIGNMENT = 32;
// Each quantised type's f16 scales (their byte offsets in a block) are set to a small power of
// two, the rest of the block is random: finite, small weights.
const Q8_0 = { id: 8, blockElements: 32, blockBytes: 34, scales: [0], scale: 0x1c00 };
const TYPES = {
  Q8_0,
  Q5_0: { id: 6, blockElements: 32, blockBytes: 22, scales: [0], scale: 0x1c00 },
  Q4_K: { id: 12, blockElements: 256, blockBytes: 144, scales: [0, 2], scale: 0x0c00 },
  Q6_K: { id: 14, blockElements: 256, blockBytes: 210, scales: [208], scale: 0x0c00 },
};
const F32 = { id: 0, blockElements: 1, blockBytes: 4 };

/**
 * llama.cpp's Q4_K_M recipe on `layers` layers, as testkit's q4KMedium (which the conformance
 * tests use; TypeScript, so out of reach of these plain Node scripts): Q4_K, with Q6_K for the
 * head and for attn_v and ffn_down in the layers it gives more bits; rows that are not whole
 * 256-element blocks fall back to Q5_0 and Q8_0.
 */
export function q4KMedium(layers) {
  const eighth = Math.floor(layers / 8);
  const moreBits = (layer) => layer < eighth || layer >= Math.floor((7 * layers) / 8) || (layer - eighth) % 3 === 2;
  return (name, row) => {
    const layer = Number(/^blk\.(\d+)\./.exec(name)?.[1] ?? -1);
    const six = name === 'output.weight' || (/attn_v|ffn_down/.test(name) && moreBits(layer));
    if (row % 256 === 0) return six ? 'Q6_K' : 'Q4_K';
    return six ? 'Q8_0' : 'Q5_0';
  };
}

/** GPT-2's byte-to-character table: the first 256 tokens of a byte-level vocabulary. */
function byteSymbols() {
  const printable = (b) => (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
  let extra = 0;
  return Array.from({ length: 256 }, (_, b) => String.fromCodePoint(printable(b) ? b : 256 + extra++));
}

class Header {
  parts = [];
  length = 0;
  push(buffer) {
    this.parts.push(buffer);
    this.length += buffer.length;
  }
  scalar(size, write) {
    const b = Buffer.alloc(size);
    write(b);
    this.push(b);
  }
  u32 = (v) => this.scalar(4, (b) => b.writeUInt32LE(v));
  i32 = (v) => this.scalar(4, (b) => b.writeInt32LE(v));
  f32 = (v) => this.scalar(4, (b) => b.writeFloatLE(v));
  u64 = (v) => this.scalar(8, (b) => b.writeBigUInt64LE(BigInt(v)));
  string(v) {
    const bytes = Buffer.from(v, 'utf8');
    this.u64(bytes.length);
    this.push(bytes);
  }
}

/**
 * Writes the model to `path`; answers its size and its largest tensor's bytes. `shape`: layers,
 * hidden, ffn, heads, kvHeads, vocab, context, and optionally `typeOf(name, row)` naming each
 * matrix's type (Q8_0 for all by default).
 */
export function writeSyntheticGguf(path, shape) {
  const { layers, hidden, ffn, heads, kvHeads, vocab, context, typeOf = () => 'Q8_0' } = shape;
  const kvWidth = (hidden / heads) * kvHeads;
  const tensors = [];
  const add = (name, dims, type) => tensors.push({ name, dims, type: type === Q8_0 ? TYPES[typeOf(name, dims[0])] : type });
  add('token_embd.weight', [hidden, vocab], Q8_0);
  for (let l = 0; l < layers; l++) {
    add(`blk.${l}.attn_norm.weight`, [hidden], F32);
    add(`blk.${l}.attn_q.weight`, [hidden, hidden], Q8_0);
    add(`blk.${l}.attn_k.weight`, [hidden, kvWidth], Q8_0);
    add(`blk.${l}.attn_v.weight`, [hidden, kvWidth], Q8_0);
    add(`blk.${l}.attn_output.weight`, [hidden, hidden], Q8_0);
    add(`blk.${l}.ffn_norm.weight`, [hidden], F32);
    add(`blk.${l}.ffn_gate.weight`, [hidden, ffn], Q8_0);
    add(`blk.${l}.ffn_up.weight`, [hidden, ffn], Q8_0);
    add(`blk.${l}.ffn_down.weight`, [ffn, hidden], Q8_0);
  }
  add('output_norm.weight', [hidden], F32);
  add('output.weight', [hidden, vocab], Q8_0);

  const tokens = [...byteSymbols(), '<|im_start|>', '<|im_end|>'];
  for (let i = tokens.length; i < vocab; i++) tokens.push(`<filler${i}>`);
  const h = new Header();
  const metadata = [
    ['general.architecture', 8, () => h.string('llama')],
    ['general.name', 8, () => h.string('synthetic llama')],
    ['llama.block_count', 4, () => h.u32(layers)],
    ['llama.context_length', 4, () => h.u32(context)],
    ['llama.embedding_length', 4, () => h.u32(hidden)],
    ['llama.feed_forward_length', 4, () => h.u32(ffn)],
    ['llama.attention.head_count', 4, () => h.u32(heads)],
    ['llama.attention.head_count_kv', 4, () => h.u32(kvHeads)],
    ['llama.rope.freq_base', 6, () => h.f32(10000)],
    ['llama.attention.layer_norm_rms_epsilon', 6, () => h.f32(1e-5)],
    ['tokenizer.ggml.model', 8, () => h.string('gpt2')],
    ['tokenizer.ggml.pre', 8, () => h.string('smollm')],
    ['tokenizer.ggml.tokens', 9, () => (h.u32(8), h.u64(tokens.length), tokens.forEach((t) => h.string(t)))],
    [
      'tokenizer.ggml.token_type',
      9,
      () => (h.u32(5), h.u64(tokens.length), tokens.forEach((_, id) => h.i32(id === 256 || id === 257 ? 3 : 1))),
    ],
    ['tokenizer.ggml.merges', 9, () => (h.u32(8), h.u64(0))],
    ['tokenizer.ggml.bos_token_id', 4, () => h.u32(256)],
    ['tokenizer.ggml.eos_token_id', 4, () => h.u32(257)],
  ];
  h.u32(0x46554747);
  h.u32(3);
  h.u64(tensors.length);
  h.u64(metadata.length);
  for (const [key, type, write] of metadata) {
    h.string(key);
    h.u32(type);
    write();
  }
  let offset = 0;
  for (const t of tensors) {
    const elements = t.dims.reduce((a, b) => a * b, 1);
    t.bytes = (elements / t.type.blockElements) * t.type.blockBytes;
    t.offset = offset;
    offset = Math.ceil((offset + t.bytes) / ALIGNMENT) * ALIGNMENT;
    h.string(t.name);
    h.u32(t.dims.length);
    for (const d of t.dims) h.u64(d);
    h.u32(t.type.id);
    h.u64(t.offset);
  }
  h.push(Buffer.alloc((ALIGNMENT - (h.length % ALIGNMENT)) % ALIGNMENT));

  const fd = openSync(path, 'w');
  try {
    for (const part of h.parts) writeSync(fd, part);
    const dataStart = h.length;
    for (const t of tensors) {
      const chunk = Buffer.alloc(t.type.blockBytes * 32768);
      for (let done = 0; done < t.bytes;) {
        const length = Math.min(chunk.length, t.bytes - done);
        if (t.type === F32)
          chunk
            .fill(0)
            .subarray(0, length)
            .set(new Uint8Array(new Float32Array(length / 4).fill(1).buffer));
        else {
          randomFillSync(chunk, 0, length);
          for (let b = 0; b < length; b += t.type.blockBytes) for (const at of t.type.scales) chunk.writeUInt16LE(t.type.scale, b + at);
        }
        writeSync(fd, chunk, 0, length, dataStart + t.offset + done);
        done += length;
      }
    }
    return {
      bytes: dataStart + tensors.at(-1).offset + tensors.at(-1).bytes,
      largestTensorBytes: Math.max(...tensors.map((t) => t.bytes)),
    };
  } finally {
    closeSync(fd);
  }
}
