/**
 * Reads safetensors files: an 8-byte little-endian header length, a JSON header naming each
 * tensor's dtype, shape and byte range, then the data. The file is outside input, so the header
 * is checked whole before anything is trusted: its length, every dtype, every shape against its
 * range, every range inside the file and none overlapping another. Data is read a tensor at a time.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { f16ToF32 } from '../quant';

export type SafetensorsDtype = 'F32' | 'F16' | 'BF16';
const BYTES: Record<SafetensorsDtype, number> = { F32: 4, F16: 2, BF16: 2 };
/** Real headers are a few hundred kilobytes at most; 100 MB is safetensors' own limit. */
const MAX_HEADER = 100_000_000;

export interface SafetensorsTensor {
  name: string;
  dtype: SafetensorsDtype;
  /** Row-major, the slowest dimension first (PyTorch's order, the reverse of ggml's). */
  shape: number[];
  file: string;
  /** Absolute offset in the file. */
  offset: number;
  byteLength: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The tensors of one safetensors file, checked against its size. */
export async function readSafetensorsHeader(path: string): Promise<SafetensorsTensor[]> {
  const handle = await open(path, 'r');
  try {
    const size = (await handle.stat()).size;
    const fail = (what: string): never => {
      throw new Error(`${path} is not a valid safetensors file: ${what}`);
    };
    if (size < 8) fail('it is shorter than its 8-byte header length');
    const prefix = Buffer.alloc(8);
    await handle.read(prefix, 0, 8, 0);
    const declared = prefix.readBigUInt64LE(0);
    if (declared > BigInt(Math.min(MAX_HEADER, size - 8))) fail(`its header length ${declared} runs past the file or is absurd`);
    const headerLength = Number(declared);
    const text = Buffer.alloc(headerLength);
    await handle.read(text, 0, headerLength, 8);
    let header: unknown;
    try {
      header = JSON.parse(text.toString('utf8'));
    } catch {
      return fail('its header is not JSON');
    }
    if (!isRecord(header)) return fail('its header is not a JSON object');
    const dataStart = 8 + headerLength;
    const tensors: SafetensorsTensor[] = [];
    for (const [name, entry] of Object.entries(header)) {
      if (name === '__metadata__') continue;
      if (!isRecord(entry)) return fail(`tensor ${name} is not described by an object`);
      const { dtype, shape, data_offsets: range } = entry;
      if (typeof dtype !== 'string' || !Object.hasOwn(BYTES, dtype))
        return fail(`tensor ${name} has dtype ${String(dtype)} (Meshwork reads ${Object.keys(BYTES).join(', ')})`);
      if (!Array.isArray(shape) || shape.length > 4 || !shape.every((d) => Number.isSafeInteger(d) && d >= 0))
        return fail(`tensor ${name} has shape ${JSON.stringify(shape)}`);
      if (!Array.isArray(range) || range.length !== 2 || !range.every((o) => Number.isSafeInteger(o) && o >= 0) || range[0] > range[1])
        return fail(`tensor ${name} has data_offsets ${JSON.stringify(range)}`);
      const [begin, end] = range as [number, number];
      const elements = (shape as number[]).reduce((a, b) => a * b, 1);
      if (!Number.isSafeInteger(elements) || elements * BYTES[dtype as SafetensorsDtype] !== end - begin)
        return fail(`tensor ${name}'s shape [${(shape as number[]).join(', ')}] of ${dtype} does not fill its ${end - begin} bytes`);
      if (dataStart + end > size) return fail(`tensor ${name} runs past the end of the file`);
      tensors.push({
        name,
        dtype: dtype as SafetensorsDtype,
        shape: shape as number[],
        file: path,
        offset: dataStart + begin,
        byteLength: end - begin,
      });
    }
    // Ranges that share bytes would let one tensor's data pass for another's.
    const sorted = [...tensors].sort((a, b) => a.offset - b.offset);
    for (let i = 1; i < sorted.length; i++) {
      const before = sorted[i - 1]!;
      if (sorted[i]!.offset < before.offset + before.byteLength) fail(`tensors ${before.name} and ${sorted[i]!.name} overlap`);
    }
    return tensors;
  } finally {
    await handle.close();
  }
}

/** One tensor's values as float32, whatever its dtype (synchronous: the packer pulls tensors as it builds each graph). */
export function readSafetensorsValues(tensor: SafetensorsTensor): Float32Array {
  const fd = openSync(tensor.file, 'r');
  const bytes = Buffer.allocUnsafe(tensor.byteLength);
  try {
    for (let read = 0; read < tensor.byteLength;) {
      const got = readSync(fd, bytes, read, tensor.byteLength - read, tensor.offset + read);
      if (got === 0) throw new Error(`${tensor.file} is cut short: tensor ${tensor.name} ends at byte ${tensor.offset + read}`);
      read += got;
    }
  } finally {
    closeSync(fd);
  }
  const count = tensor.byteLength / BYTES[tensor.dtype];
  const out = new Float32Array(count);
  if (tensor.dtype === 'F32') for (let i = 0; i < count; i++) out[i] = bytes.readFloatLE(4 * i);
  else if (tensor.dtype === 'F16') for (let i = 0; i < count; i++) out[i] = f16ToF32(bytes.readUInt16LE(2 * i));
  else {
    // bfloat16 is a float32's top half.
    const words = new Uint32Array(out.buffer);
    for (let i = 0; i < count; i++) words[i] = bytes.readUInt16LE(2 * i) << 16;
  }
  return out;
}
