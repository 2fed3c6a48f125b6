/**
 * Blocks of ggml's quantised types for tests: round-to-nearest quantisers from float32 (simpler
 * than llama.cpp's searches, but every block they write is a valid block of its type), and
 * random valid blocks (any bytes whose f16 fields are finite). Layouts: desktop/src/pack/quant.ts.
 */
import { blockElements, f16ToF32, f32ToF16, GgmlType, KVALUES_IQ4NL, tensorBytes } from '../../../desktop/src/pack/quant';

/** A float as the f16 ggml would store, and that value back. */
function half(value: number): { bits: number; value: number } {
  const bits = f32ToF16(value);
  return { bits, value: f16ToF32(bits) };
}

/** The value of largest magnitude (its sign kept), as ggml's symmetric quantisers pick it. */
function signedMax(values: Float32Array): number {
  let max = 0;
  for (const v of values) if (Math.abs(v) > Math.abs(max)) max = v;
  return max;
}

/** Ors `bits` into one byte (blocks are written a field at a time). */
function setBits(out: Buffer, at: number, bits: number): void {
  out[at] = out[at]! | bits;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** The index of the IQ4 table entry nearest `x` at scale `d`. */
function nearestLevel(x: number, d: number): number {
  let best = 0;
  for (let i = 1; i < 16; i++) if (Math.abs(d * KVALUES_IQ4NL[i]! - x) < Math.abs(d * KVALUES_IQ4NL[best]! - x)) best = i;
  return best;
}

/** Nibbles of a 32-block in ggml's order (element i low, i + 16 high) and the fifth bits. */
function putNibbles32(out: Buffer, at: number, q: (e: number) => number, fifthAt?: number): void {
  for (let i = 0; i < 16; i++) out[at + i] = (q(i) & 0x0f) | ((q(i + 16) & 0x0f) << 4);
  if (fifthAt === undefined) return;
  let high = 0;
  for (let e = 0; e < 32; e++) high |= (q(e) >> 4) << e;
  out.writeUInt32LE(high >>> 0, fifthAt);
}

/** Q5_0, Q5_1, IQ4_NL: one 32-element block at `at`. */
function quantize32(type: GgmlType, block: Float32Array, out: Buffer, at: number): void {
  if (type === GgmlType.Q5_0) {
    const d = half(signedMax(block) / -16);
    out.writeUInt16LE(d.bits, at);
    const q = (e: number) => (d.value ? clamp(Math.trunc(block[e]! / d.value + 16.5), 0, 31) : 16);
    putNibbles32(out, at + 6, q, at + 2);
  } else if (type === GgmlType.Q5_1) {
    const min = half(Math.min(...block));
    const d = half((Math.max(...block) - min.value) / 31);
    out.writeUInt16LE(d.bits, at);
    out.writeUInt16LE(min.bits, at + 2);
    const q = (e: number) => (d.value ? clamp(Math.round((block[e]! - min.value) / d.value), 0, 31) : 0);
    putNibbles32(out, at + 8, q, at + 4);
  } else {
    const d = half(signedMax(block) / KVALUES_IQ4NL[0]!);
    out.writeUInt16LE(d.bits, at);
    putNibbles32(out, at + 2, (e) => nearestLevel(block[e]!, d.value));
  }
}

/** Q4_K's and Q5_K's 6-bit scales and mins of 8 sub-blocks, packed into 12 bytes at `at`. */
function putScaleMins(out: Buffer, at: number, scales: number[], mins: number[]): void {
  for (let j = 0; j < 8; j++) {
    if (j < 4) {
      out[at + j] = scales[j]!;
      out[at + j + 4] = mins[j]!;
    } else {
      out[at + j + 4] = (scales[j]! & 0x0f) | ((mins[j]! & 0x0f) << 4);
      setBits(out, at + j - 4, (scales[j]! >> 4) << 6);
      setBits(out, at + j, (mins[j]! >> 4) << 6);
    }
  }
}

/** Q4_K or Q5_K: one 256-element super-block at `at`. */
function quantizeK(fifth: boolean, block: Float32Array, out: Buffer, at: number): void {
  const top = fifth ? 31 : 15;
  const subs = Array.from({ length: 8 }, (_, j) => block.subarray(j * 32, j * 32 + 32));
  const lows = subs.map((s) => Math.min(0, ...s));
  const steps = subs.map((s, j) => (Math.max(...s) - lows[j]!) / top);
  const d = half(Math.max(...steps) / 63);
  const dmin = half(Math.max(...lows.map((l) => -l)) / 63);
  const scales = steps.map((s) => (d.value ? clamp(Math.round(s / d.value), 0, 63) : 0));
  const mins = lows.map((l) => (dmin.value ? clamp(Math.round(-l / dmin.value), 0, 63) : 0));
  out.writeUInt16LE(d.bits, at);
  out.writeUInt16LE(dmin.bits, at + 2);
  putScaleMins(out, at + 4, scales, mins);
  const nibbles = at + 16 + (fifth ? 32 : 0);
  for (let j = 0; j < 8; j++) {
    const scale = Math.fround(d.value * scales[j]!);
    const min = Math.fround(dmin.value * mins[j]!);
    for (let l = 0; l < 32; l++) {
      const q = scale ? clamp(Math.round((subs[j]![l]! + min) / scale), 0, top) : 0;
      setBits(out, nibbles + (j >> 1) * 32 + l, (q & 0x0f) << (j & 1 ? 4 : 0));
      if (fifth) setBits(out, at + 16 + l, (q >> 4) << j);
    }
  }
}

/** Q6_K: one 256-element super-block at `at`. */
function quantizeQ6K(block: Float32Array, out: Buffer, at: number): void {
  const steps = Array.from({ length: 16 }, (_, s) => signedMax(block.subarray(s * 16, s * 16 + 16)) / -32);
  const d = half(Math.max(...steps.map(Math.abs)) / 127);
  const scales = steps.map((s) => (d.value ? clamp(Math.round(s / d.value), -127, 127) : 0));
  out.writeUInt16LE(d.bits, at + 208);
  for (let s = 0; s < 16; s++) out.writeInt8(scales[s]!, at + 192 + s);
  const q = (e: number) => {
    const scale = Math.fround(d.value * scales[e >> 4]!);
    return scale ? clamp(Math.round(block[e]! / scale) + 32, 0, 63) : 32;
  };
  for (let h = 0; h < 2; h++) {
    for (let l = 0; l < 32; l++) {
      const [q1, q2, q3, q4] = [0, 32, 64, 96].map((o) => q(h * 128 + o + l)) as [number, number, number, number];
      out[at + h * 64 + l] = (q1 & 0x0f) | ((q3 & 0x0f) << 4);
      out[at + h * 64 + l + 32] = (q2 & 0x0f) | ((q4 & 0x0f) << 4);
      out[at + 128 + h * 32 + l] = (q1 >> 4) | ((q2 >> 4) << 2) | ((q3 >> 4) << 4) | ((q4 >> 4) << 6);
    }
  }
}

/** IQ4_XS: one 256-element super-block at `at`. */
function quantizeIQ4XS(block: Float32Array, out: Buffer, at: number): void {
  const subs = Array.from({ length: 8 }, (_, j) => block.subarray(j * 32, j * 32 + 32));
  const steps = subs.map((s) => signedMax(s) / KVALUES_IQ4NL[0]!);
  const d = half(Math.max(...steps.map(Math.abs)) / 31);
  out.writeUInt16LE(d.bits, at);
  let scalesHigh = 0;
  for (let j = 0; j < 8; j++) {
    const ls = d.value ? clamp(Math.round(steps[j]! / d.value), -32, 31) + 32 : 32;
    setBits(out, at + 4 + (j >> 1), (ls & 0x0f) << (4 * (j & 1)));
    scalesHigh |= (ls >> 4) << (2 * j);
    const scale = Math.fround(d.value * (ls - 32));
    for (let i = 0; i < 16; i++) {
      out[at + 8 + j * 16 + i] = nearestLevel(subs[j]![i]!, scale) | (nearestLevel(subs[j]![i + 16]!, scale) << 4);
    }
  }
  out.writeUInt16LE(scalesHigh, at + 2);
}

/** A float32 to bfloat16 (round half to even), as ggml converts. */
function toBf16(value: number): number {
  const bits = new Uint32Array(Float32Array.of(value).buffer)[0]!;
  if ((bits & 0x7fffffff) > 0x7f800000) return (bits >>> 16) | 64; // quiet NaN
  return (bits + 0x7fff + ((bits >>> 16) & 1)) >>> 16;
}

/** The types past tiny-gguf's first five: Q5_0, Q5_1, Q4_K, Q5_K, Q6_K, IQ4_NL, IQ4_XS, BF16. */
export function quantizeMore(type: GgmlType, data: Float32Array): Buffer {
  const out = Buffer.alloc(tensorBytes(type, data.length));
  const each = (size: number, stride: number, write: (block: Float32Array, at: number) => void) => {
    for (let b = 0; b < data.length / size; b++) write(data.subarray(b * size, (b + 1) * size), b * stride);
  };
  switch (type) {
    case GgmlType.BF16:
      data.forEach((v, i) => out.writeUInt16LE(toBf16(v), 2 * i));
      return out;
    case GgmlType.Q5_0:
    case GgmlType.Q5_1:
    case GgmlType.IQ4_NL:
      each(32, tensorBytes(type, 32), (block, at) => quantize32(type, block, out, at));
      return out;
    case GgmlType.Q4_K:
    case GgmlType.Q5_K:
      each(256, tensorBytes(type, 256), (block, at) => quantizeK(type === GgmlType.Q5_K, block, out, at));
      return out;
    case GgmlType.Q6_K:
      each(256, 210, (block, at) => quantizeQ6K(block, out, at));
      return out;
    case GgmlType.IQ4_XS:
      each(256, 136, (block, at) => quantizeIQ4XS(block, out, at));
      return out;
    default:
      throw new Error(`quantizeMore does not write ${GgmlType[type]}: tiny-gguf's quantize does`);
  }
}

/** Where each type's f16 fields sit in its block (F16 and BF16: every element). */
const HALF_FIELDS: Partial<Record<GgmlType, number[]>> = {
  [GgmlType.Q4_0]: [0],
  [GgmlType.Q4_1]: [0, 2],
  [GgmlType.Q5_0]: [0],
  [GgmlType.Q5_1]: [0, 2],
  [GgmlType.Q8_0]: [0],
  [GgmlType.Q4_K]: [0, 2],
  [GgmlType.Q5_K]: [0, 2],
  [GgmlType.Q6_K]: [208],
  [GgmlType.IQ4_NL]: [0],
  [GgmlType.IQ4_XS]: [0],
};

/**
 * `count` elements of random valid blocks: random bytes with every f16 field (and every F16,
 * BF16 or F32 element) a finite value, its exponent drawn from `exponents` (default: all finite).
 */
export function randomBlocks(
  type: GgmlType,
  count: number,
  random: () => number,
  exponents: { min: number; max: number } = { min: 0, max: 30 },
): Buffer {
  const out = Buffer.alloc(tensorBytes(type, count));
  for (let i = 0; i < out.length; i++) out[i] = Math.floor(random() * 256);
  const byte = () => Math.floor(random() * 256);
  const exponent = () => exponents.min + Math.floor(random() * (exponents.max - exponents.min + 1));
  const randomHalf = () => (byte() & 0x80 ? 0x8000 : 0) | (exponent() << 10) | (((byte() << 8) | byte()) & 0x3ff);
  if (type === GgmlType.F32) {
    for (let i = 0; i < count; i++) out.writeFloatLE(f16ToF32(randomHalf()) * (1 + random()), 4 * i);
  } else if (type === GgmlType.F16) {
    for (let i = 0; i < count; i++) out.writeUInt16LE(randomHalf(), 2 * i);
  } else if (type === GgmlType.BF16) {
    for (let i = 0; i < count; i++) out.writeUInt16LE(toBf16(f16ToF32(randomHalf())), 2 * i);
  } else {
    const stride = tensorBytes(type, blockElements(type));
    for (let at = 0; at < out.length; at += stride) for (const field of HALF_FIELDS[type]!) out.writeUInt16LE(randomHalf(), at + field);
  }
  return out;
}
