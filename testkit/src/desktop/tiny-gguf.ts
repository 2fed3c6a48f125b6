/**
 * Writes small GGUF files for tests: metadata of every value type, tensors of every type the
 * packer reads (quantised with ggml's reference rounding, or round to nearest for the types
 * ggml-blocks.ts writes; or given as raw blocks), aligned as llama.cpp aligns them.
 */
import { f32ToF16, GgmlType, tensorBytes } from '../../../desktop/src/pack/quant';
import { quantizeMore } from './ggml-blocks';

export type MetaValue =
  | { type: 'u8' | 'i8' | 'u16' | 'i16' | 'u32' | 'i32' | 'f32' | 'f64'; value: number }
  | { type: 'u64' | 'i64'; value: bigint }
  | { type: 'bool'; value: boolean }
  | { type: 'string'; value: string }
  | { type: 'array'; itemType: 'string' | 'i32' | 'f32' | 'u8'; value: (string | number)[] };

export interface TensorSpec {
  name: string;
  dims: number[];
  type: GgmlType;
  data: Float32Array;
}

/** A tensor given as its blocks' bytes, written as they are (e.g. ggml-blocks' randomBlocks). */
export interface RawTensorSpec {
  name: string;
  dims: number[];
  type: GgmlType;
  bytes: Uint8Array;
}

const TYPE_IDS = { u8: 0, i8: 1, u16: 2, i16: 3, u32: 4, i32: 5, f32: 6, bool: 7, string: 8, array: 9, u64: 10, i64: 11, f64: 12 } as const;

class Writer {
  private readonly chunks: Buffer[] = [];
  length = 0;
  push(buffer: Buffer): void {
    this.chunks.push(buffer);
    this.length += buffer.length;
  }
  scalar(size: number, write: (b: Buffer) => void): void {
    const b = Buffer.alloc(size);
    write(b);
    this.push(b);
  }
  u32 = (v: number) => this.scalar(4, (b) => b.writeUInt32LE(v));
  u64 = (v: number | bigint) => this.scalar(8, (b) => b.writeBigUInt64LE(BigInt(v)));
  string(v: string): void {
    const bytes = Buffer.from(v, 'utf8');
    this.u64(bytes.length);
    this.push(bytes);
  }
  pad(alignment: number): void {
    this.push(Buffer.alloc((alignment - (this.length % alignment)) % alignment));
  }
  toBuffer = () => Buffer.concat(this.chunks);
}

function writeValue(w: Writer, value: MetaValue): void {
  const put = (type: string, v: unknown) => {
    const write: Record<string, () => void> = {
      u8: () => w.scalar(1, (b) => b.writeUInt8(v as number)),
      i8: () => w.scalar(1, (b) => b.writeInt8(v as number)),
      u16: () => w.scalar(2, (b) => b.writeUInt16LE(v as number)),
      i16: () => w.scalar(2, (b) => b.writeInt16LE(v as number)),
      u32: () => w.u32(v as number),
      i32: () => w.scalar(4, (b) => b.writeInt32LE(v as number)),
      f32: () => w.scalar(4, (b) => b.writeFloatLE(v as number)),
      f64: () => w.scalar(8, (b) => b.writeDoubleLE(v as number)),
      u64: () => w.u64(v as bigint),
      i64: () => w.scalar(8, (b) => b.writeBigInt64LE(v as bigint)),
      bool: () => w.scalar(1, (b) => b.writeUInt8(v ? 1 : 0)),
      string: () => w.string(v as string),
    };
    write[type]!();
  };
  if (value.type === 'array') {
    w.u32(TYPE_IDS[value.itemType]);
    w.u64(value.value.length);
    for (const item of value.value) put(value.itemType, item);
  } else put(value.type, value.value);
}

/** ggml's reference quantisers (round to nearest), block by block, for every type the packer reads. */
export function quantize(type: GgmlType, data: Float32Array): Buffer {
  if (![GgmlType.F32, GgmlType.F16, GgmlType.Q4_0, GgmlType.Q4_1, GgmlType.Q8_0].includes(type)) return quantizeMore(type, data);
  const out = Buffer.alloc(tensorBytes(type, data.length));
  for (let b = 0; b < data.length / (type === GgmlType.F32 || type === GgmlType.F16 ? 1 : 32); b++) {
    const block = data.subarray(b * 32, b * 32 + 32);
    if (type === GgmlType.F32) out.writeFloatLE(data[b]!, 4 * b);
    else if (type === GgmlType.F16) out.writeUInt16LE(f32ToF16(data[b]!), 2 * b);
    else if (type === GgmlType.Q8_0) {
      const amax = Math.max(...block.map(Math.abs));
      const d = amax / 127;
      out.writeUInt16LE(f32ToF16(d), b * 34);
      for (let e = 0; e < 32; e++) out.writeInt8(d ? Math.round(block[e]! / d) : 0, b * 34 + 2 + e);
    } else if (type === GgmlType.Q4_0) {
      let max = 0;
      for (const v of block) if (Math.abs(v) > Math.abs(max)) max = v;
      const d = max / -8;
      out.writeUInt16LE(f32ToF16(d), b * 18);
      const q = (e: number) => Math.min(15, Math.trunc((d ? block[e]! / d : 0) + 8.5));
      for (let i = 0; i < 16; i++) out[b * 18 + 2 + i] = q(i) | (q(i + 16) << 4);
    } else {
      const min = Math.min(...block);
      const d = (Math.max(...block) - min) / 15;
      out.writeUInt16LE(f32ToF16(d), b * 20);
      out.writeUInt16LE(f32ToF16(min), b * 20 + 2);
      const q = (e: number) => Math.min(15, Math.trunc((d ? (block[e]! - min) / d : 0) + 0.5));
      for (let i = 0; i < 16; i++) out[b * 20 + 4 + i] = q(i) | (q(i + 16) << 4);
    }
  }
  return out;
}

/** A tensor as the header names it: its data's length, not the data. */
export interface TensorLayout {
  name: string;
  dims: number[];
  type: GgmlType;
  byteLength: number;
}

/**
 * A GGUF's header, padded to where the data starts, and each tensor's offset in the data (each
 * aligned): what a writer streaming the tensors of a large model writes first.
 */
export function ggufHeader(
  given: Record<string, MetaValue>,
  tensors: readonly TensorLayout[],
  alignment = 32,
): { header: Buffer; offsets: number[] } {
  // Readers take 32 unless the file says otherwise.
  const metadata: Record<string, MetaValue> =
    alignment === 32 ? given : { ...given, 'general.alignment': { type: 'u32', value: alignment } };
  const w = new Writer();
  w.u32(0x46554747);
  w.u32(3);
  w.u64(tensors.length);
  w.u64(Object.keys(metadata).length);
  for (const [key, value] of Object.entries(metadata)) {
    w.string(key);
    w.u32(TYPE_IDS[value.type]);
    writeValue(w, value);
  }
  const offsets: number[] = [];
  let offset = 0;
  for (const t of tensors) {
    w.string(t.name);
    w.u32(t.dims.length);
    for (const dim of t.dims) w.u64(dim);
    w.u32(t.type);
    w.u64(offset);
    offsets.push(offset);
    offset += Math.ceil(t.byteLength / alignment) * alignment;
  }
  w.pad(alignment);
  return { header: w.toBuffer(), offsets };
}

export function writeGguf(given: Record<string, MetaValue>, tensors: (TensorSpec | RawTensorSpec)[], alignment = 32): Buffer {
  const blobs = tensors.map((t) => {
    if (!('bytes' in t)) return quantize(t.type, t.data);
    const count = t.dims.reduce((a, b) => a * b, 1);
    if (t.bytes.length !== tensorBytes(t.type, count)) throw new Error(`tensor ${t.name}: ${t.bytes.length} bytes for ${count} elements`);
    return Buffer.from(t.bytes);
  });
  const { header } = ggufHeader(
    given,
    tensors.map((t, i) => ({ name: t.name, dims: t.dims, type: t.type, byteLength: blobs[i]!.length })),
    alignment,
  );
  const w = new Writer();
  w.push(header);
  for (const blob of blobs) {
    w.push(blob);
    w.pad(alignment);
  }
  return w.toBuffer();
}
