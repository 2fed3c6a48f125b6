/**
 * A model no capped test machine can hold alone, yet quick on two cores: TinyLlama 1.1B's shape
 * (22 layers, hidden 2048, FFN 5632, 32 heads over 4 key/value heads, 32,000 tokens) with random
 * Q4_0 weights from a fixed seed, written as GGUF (about 620 MB) and packed as `model:pack` packs
 * (fp32 activations, 6 blocks). Both are made once into the machine's cache, beside the 8B-shaped
 * benchmark model: the GGUF keyed by this generator's version, the package by the packer's source
 * too, so a changed packer packs again. Never committed.
 *
 * The weights are random bytes (AES-CTR from the seed: fast, and the same on every machine), each
 * 4-bit code drawn from 1..15 so every matrix is centred on 0 (ggml's code 0, −8, has no +8
 * partner), under one scale a tensor, so each matrix has the spread of 1/√inputs that keeps the
 * activations steady over 22 layers.
 */
import { createCipheriv, createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { bytesToSymbols } from '../../../desktop/src/engine/tokenizer/byte-level';
import { packModel } from '../../../desktop/src/pack/packer';
import { f32ToF16, GgmlType } from '../../../desktop/src/pack/quant';
import { ggufHeader, type MetaValue, type TensorLayout } from './tiny-gguf';
import { llamaMetadata } from './tiny-llama';

/** Change it whenever the writer, the shape or the seed changes: the cached files follow it. */
export const CAPPED_MODEL_VERSION = 'tinyllama-shape-q4_0-v2';
export const CAPPED_SHAPE = { layers: 22, hidden: 2048, ffn: 5632, heads: 32, kvHeads: 4, vocab: 32_000, context: 512 } as const;
export const CAPPED_BLOCKS = 6;
const SEED = 'meshwork capped model 1';

/**
 * Each matrix's spread, relative to 1/√inputs. The residual branches' outputs are a quarter: the
 * layers still decide the answer, and llama.cpp's 8-bit rounding of their inputs (which the
 * answer is compared with) moves the logits about half as much as at a half.
 */
const GAIN: Record<string, number> = {
  token_embd: Math.sqrt(CAPPED_SHAPE.hidden),
  attn_q: 1,
  attn_k: 1,
  attn_v: 1,
  attn_output: 0.25,
  ffn_gate: 1,
  ffn_up: 1,
  ffn_down: 0.25,
  output: 4,
};

const repositoryRoot = resolve(__dirname, '..', '..', '..');

/** The cache infra uses (MESHWORK_CACHE, else ~/.cache/meshwork). */
function cacheDirectory(): string {
  return join(resolve(process.env.MESHWORK_CACHE || join(homedir(), '.cache', 'meshwork')), 'capped-model');
}

/** The byte-level vocabulary: the 256 bytes, two special tokens, fillers to 32,000. */
function vocabulary(): Record<string, MetaValue> {
  const tokens = [...bytesToSymbols(Uint8Array.from({ length: 256 }, (_, i) => i)), '<|im_start|>', '<|im_end|>'];
  for (let i = tokens.length; i < CAPPED_SHAPE.vocab; i++) tokens.push(`<t${i}>`);
  return {
    'tokenizer.ggml.model': { type: 'string', value: 'gpt2' },
    'tokenizer.ggml.pre': { type: 'string', value: 'smollm' },
    'tokenizer.ggml.tokens': { type: 'array', itemType: 'string', value: tokens },
    'tokenizer.ggml.token_type': { type: 'array', itemType: 'i32', value: tokens.map((_, id) => (id === 256 || id === 257 ? 3 : 1)) },
    'tokenizer.ggml.merges': { type: 'array', itemType: 'string', value: [] },
    'tokenizer.ggml.bos_token_id': { type: 'u32', value: 256 },
    'tokenizer.ggml.eos_token_id': { type: 'u32', value: 257 },
  };
}

interface Tensor extends TensorLayout {
  /** The matrix's inputs (ggml's first dim), for its spread. */
  k: number;
  gain: number;
}

function tensors(): Tensor[] {
  const { layers, hidden, ffn, heads, kvHeads, vocab } = CAPPED_SHAPE;
  const kv = (hidden / heads) * kvHeads;
  const list: Tensor[] = [];
  const q40 = (name: string, k: number, n: number) =>
    list.push({ name, dims: [k, n], type: GgmlType.Q4_0, byteLength: ((k * n) / 32) * 18, k, gain: GAIN[name.split('.').at(-2)!]! });
  const norm = (name: string) => list.push({ name, dims: [hidden], type: GgmlType.F32, byteLength: 4 * hidden, k: hidden, gain: 1 });
  q40('token_embd.weight', hidden, vocab);
  for (let l = 0; l < layers; l++) {
    norm(`blk.${l}.attn_norm.weight`);
    q40(`blk.${l}.attn_q.weight`, hidden, hidden);
    q40(`blk.${l}.attn_k.weight`, hidden, kv);
    q40(`blk.${l}.attn_v.weight`, hidden, kv);
    q40(`blk.${l}.attn_output.weight`, hidden, hidden);
    norm(`blk.${l}.ffn_norm.weight`);
    q40(`blk.${l}.ffn_gate.weight`, hidden, ffn);
    q40(`blk.${l}.ffn_up.weight`, hidden, ffn);
    q40(`blk.${l}.ffn_down.weight`, ffn, hidden);
  }
  norm('output_norm.weight');
  q40('output.weight', hidden, vocab);
  return list;
}

/** A byte whose two nibbles are codes 1..15 (0 becomes 8, the code for 0): centred on 0. */
const CENTRED = Uint8Array.from({ length: 256 }, (_, b) => {
  const nibble = (v: number) => (v === 0 ? 8 : v);
  return nibble(b & 15) | (nibble(b >> 4) << 4);
});
/** The codes' spread: values −7..7 with 0 twice as likely, in units of the block's scale. */
const CODE_SPREAD = Math.sqrt((2 * 140) / 16);

/** The tensor's bytes: Q4_0 blocks of one scale and random centred codes, or 1.0 norms. */
function tensorData(tensor: Tensor): Buffer {
  if (tensor.type === GgmlType.F32) return Buffer.from(new Float32Array(tensor.byteLength / 4).fill(1).buffer);
  const key = createHash('sha256').update(`${SEED}\0${tensor.name}`).digest();
  const cipher = createCipheriv('aes-256-ctr', key, Buffer.alloc(16));
  const data = cipher.update(Buffer.alloc(tensor.byteLength));
  const scale = f32ToF16(tensor.gain / (CODE_SPREAD * Math.sqrt(tensor.k)));
  for (let block = 0; block < data.length; block += 18) {
    data.writeUInt16LE(scale, block);
    for (let i = block + 2; i < block + 18; i++) data[i] = CENTRED[data[i]!]!;
  }
  return data;
}

/** Writes the GGUF to `path`, a tensor at a time. */
async function writeModel(path: string): Promise<void> {
  const list = tensors();
  const metadata: Record<string, MetaValue> = { ...llamaMetadata('Capped TinyLlama shape', CAPPED_SHAPE), ...vocabulary() };
  const { header, offsets } = ggufHeader(metadata, list);
  const file = await open(path, 'w');
  try {
    await file.write(header, 0, header.length, 0);
    for (const [i, tensor] of list.entries()) {
      const data = tensorData(tensor);
      await file.write(data, 0, data.length, header.length + offsets[i]!);
    }
  } finally {
    await file.close();
  }
}

/** Writes `make`'s output into `path` through a partial file, so a killed run leaves no half file under the name. */
async function intoCache(path: string, make: (partial: string) => Promise<void>): Promise<void> {
  const partial = `${path}.partial-${process.pid}`;
  try {
    await make(partial);
    await rename(partial, path);
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
}

/** The packer's source: a package packed by other code is packed again. */
async function packerSource(): Promise<string> {
  const hash = createHash('sha256');
  const walk = async (dir: string): Promise<void> => {
    for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) hash.update(entry.name).update(await readFile(path));
    }
  };
  await walk(join(repositoryRoot, 'desktop', 'src', 'pack'));
  return hash.digest('hex').slice(0, 12);
}

export interface CappedModel {
  gguf: string;
  /** The packed package's directory (6 blocks, fp32 activations). */
  package: string;
  ggufBytes: number;
  /** Every file of the package. */
  packageBytes: number;
  /** What making them cost now (0 when both were cached). */
  writeMs: number;
  packMs: number;
}

/** The model's GGUF and package, made into the cache the first time (measured: 3.4 s to write, 10.6 s to pack on a quiet machine). */
export async function cappedModel(): Promise<CappedModel> {
  const cache = cacheDirectory();
  await mkdir(cache, { recursive: true });
  const gguf = join(cache, `${CAPPED_MODEL_VERSION}.gguf`);
  let started = performance.now();
  if (!existsSync(gguf)) {
    // Other versions' files go: each is about 620 MB.
    for (const old of await readdir(cache)) if (old.endsWith('.gguf')) await rm(join(cache, old), { force: true });
    await intoCache(gguf, writeModel);
  }
  const writeMs = performance.now() - started;

  const packages = join(cache, 'packages');
  const name = `${CAPPED_MODEL_VERSION}-${CAPPED_BLOCKS}b-fp32-${await packerSource()}`;
  const directory = join(packages, name);
  started = performance.now();
  if (!existsSync(directory)) {
    await mkdir(packages, { recursive: true });
    // Packages of older packers go: each is about 700 MB.
    for (const old of await readdir(packages)) if (old !== name) await rm(join(packages, old), { recursive: true, force: true });
    await intoCache(directory, (partial) =>
      packModel({ gguf, out: partial, blocks: CAPPED_BLOCKS, activations: 'fp32', name: 'Capped TinyLlama shape' }).then(() => undefined),
    );
  }
  const packMs = performance.now() - started;
  let packageBytes = 0;
  for (const file of await readdir(directory)) packageBytes += (await stat(join(directory, file))).size;
  return { gguf, package: directory, ggufBytes: (await stat(gguf)).size, packageBytes, writeMs, packMs };
}
