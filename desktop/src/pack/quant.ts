/**
 * ggml's tensor types that Meshwork reads, their block layouts, and reference dequantisers to
 * float32 written from those layouts (ggml-common.h), computed in float32 as ggml does. Within a
 * 32-element block of the 4-bit types, elements 0-15 sit in the low nibbles of 16 bytes and
 * 16-31 in the high ones; "K" types group 256 elements into a super-block of sub-blocks.
 *   F32    4 bytes per element; F16 2 (IEEE half); BF16 2 (a float32's top half)
 *   Q4_0   f16 d, 16 bytes of nibbles: (q - 8)·d
 *   Q4_1   f16 d, f16 m, 16 bytes: q·d + m
 *   Q5_0   f16 d, 4 bytes of fifth bits, 16 bytes: (q - 16)·d
 *   Q5_1   f16 d, f16 m, 4 bytes of fifth bits, 16 bytes: q·d + m
 *   Q8_0   f16 d, 32 int8: q·d
 *   Q4_K   f16 d, f16 dmin, 12 bytes of 6-bit scales and mins for 8 sub-blocks of 32, 128 bytes:
 *          (d·sc)·q - dmin·m; sub-blocks 2j and 2j+1 share 32 bytes (low nibbles, then high)
 *   Q5_K   as Q4_K, plus 32 bytes whose bit j is sub-block j's fifth bit
 *   Q6_K   128 bytes of low nibbles, 64 bytes of 2-bit highs, 16 int8 scales (sub-blocks of 16),
 *          f16 d: (d·sc)·(q - 32)
 *   IQ4_NL f16 d, 16 bytes of nibbles indexing KVALUES_IQ4NL: d·kvalues[q]
 *   IQ4_XS f16 d, u16 of 2-bit scale highs, 4 bytes of 4-bit scale lows (8 sub-blocks of 32),
 *          128 bytes of nibbles: (d·(ls - 32))·kvalues[q]
 */

export enum GgmlType {
  F32 = 0,
  F16 = 1,
  Q4_0 = 2,
  Q4_1 = 3,
  Q5_0 = 6,
  Q5_1 = 7,
  Q8_0 = 8,
  Q4_K = 12,
  Q5_K = 13,
  Q6_K = 14,
  IQ4_NL = 20,
  IQ4_XS = 23,
  BF16 = 30,
}

const LAYOUTS: Record<GgmlType, { blockElements: number; blockBytes: number }> = {
  [GgmlType.F32]: { blockElements: 1, blockBytes: 4 },
  [GgmlType.F16]: { blockElements: 1, blockBytes: 2 },
  [GgmlType.BF16]: { blockElements: 1, blockBytes: 2 },
  [GgmlType.Q4_0]: { blockElements: 32, blockBytes: 18 },
  [GgmlType.Q4_1]: { blockElements: 32, blockBytes: 20 },
  [GgmlType.Q5_0]: { blockElements: 32, blockBytes: 22 },
  [GgmlType.Q5_1]: { blockElements: 32, blockBytes: 24 },
  [GgmlType.Q8_0]: { blockElements: 32, blockBytes: 34 },
  [GgmlType.Q4_K]: { blockElements: 256, blockBytes: 144 },
  [GgmlType.Q5_K]: { blockElements: 256, blockBytes: 176 },
  [GgmlType.Q6_K]: { blockElements: 256, blockBytes: 210 },
  [GgmlType.IQ4_NL]: { blockElements: 32, blockBytes: 18 },
  [GgmlType.IQ4_XS]: { blockElements: 256, blockBytes: 136 },
};

/** ggml's names for the types it defines, so a refusal can name what it refuses. */
const GGML_NAMES: Record<number, string> = {
  0: 'F32',
  1: 'F16',
  2: 'Q4_0',
  3: 'Q4_1',
  6: 'Q5_0',
  7: 'Q5_1',
  8: 'Q8_0',
  9: 'Q8_1',
  10: 'Q2_K',
  11: 'Q3_K',
  12: 'Q4_K',
  13: 'Q5_K',
  14: 'Q6_K',
  15: 'Q8_K',
  16: 'IQ2_XXS',
  17: 'IQ2_XS',
  18: 'IQ3_XXS',
  19: 'IQ1_S',
  20: 'IQ4_NL',
  21: 'IQ3_S',
  22: 'IQ2_S',
  23: 'IQ4_XS',
  24: 'I8',
  25: 'I16',
  26: 'I32',
  27: 'I64',
  28: 'F64',
  29: 'IQ1_M',
  30: 'BF16',
  34: 'TQ1_0',
  35: 'TQ2_0',
  39: 'MXFP4',
};

/** A ggml type id's name ("Q3_K"), or "type 99" for an id ggml does not define. */
export function typeName(type: number): string {
  return GGML_NAMES[type] ?? `type ${type}`;
}

/** The names of the types Meshwork reads, for messages. */
export const SUPPORTED_TYPES = Object.keys(LAYOUTS)
  .map((type) => typeName(Number(type)))
  .join(', ');

export function isSupportedType(type: number): type is GgmlType {
  return Object.hasOwn(LAYOUTS, type);
}

/** How many elements one block of the type holds: a row's length must be a multiple of it. */
export function blockElements(type: GgmlType): number {
  return LAYOUTS[type].blockElements;
}

/** Bytes `count` elements take; refuses counts that do not fill whole blocks. */
export function tensorBytes(type: GgmlType, count: number): number {
  const { blockElements, blockBytes } = LAYOUTS[type];
  if (count % blockElements !== 0) throw new Error(`${count} elements do not fill whole blocks of ${blockElements}`);
  return (count / blockElements) * blockBytes;
}

/** IQ4_NL's and IQ4_XS's 16 levels (ggml's kvalues_iq4nl). */
export const KVALUES_IQ4NL: readonly number[] = [-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113];

const halfView = new DataView(new ArrayBuffer(4));

/** IEEE 754 half (as its 16 bits) to a number, subnormals, infinities and NaN included. */
export function f16ToF32(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 0x1f) return fraction ? NaN : sign * Infinity;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}

/** A number to the nearest IEEE half (round half to even), as its 16 bits. */
export function f32ToF16(value: number): number {
  halfView.setFloat32(0, value);
  const x = halfView.getUint32(0);
  const sign = (x >>> 16) & 0x8000;
  const exponent = ((x >>> 23) & 0xff) - 127 + 15;
  let mantissa = x & 0x7fffff;
  if (((x >>> 23) & 0xff) === 0xff) return sign | 0x7c00 | (mantissa ? 0x200 : 0);
  if (exponent >= 0x1f) return sign | 0x7c00;
  if (exponent <= 0) {
    if (exponent < -10) return sign;
    mantissa |= 0x800000;
    const shift = 14 - exponent;
    const half = mantissa >> shift;
    const rest = mantissa & ((1 << shift) - 1);
    const midpoint = 1 << (shift - 1);
    return sign | (half + (rest > midpoint || (rest === midpoint && half & 1) ? 1 : 0));
  }
  const half = (exponent << 10) | (mantissa >> 13);
  const rest = mantissa & 0x1fff;
  return sign | (half + (rest > 0x1000 || (rest === 0x1000 && half & 1) ? 1 : 0));
}

/** Sub-block j's 6-bit scale and min in a Q4_K/Q5_K super-block's 12 packed bytes at `at`. */
export function kScaleMin(bytes: Uint8Array, at: number, j: number): { scale: number; min: number } {
  if (j < 4) return { scale: bytes[at + j]! & 63, min: bytes[at + j + 4]! & 63 };
  return {
    scale: (bytes[at + j + 4]! & 0x0f) | ((bytes[at + j - 4]! >> 6) << 4),
    min: (bytes[at + j + 4]! >> 4) | ((bytes[at + j]! >> 6) << 4),
  };
}

const f32 = Math.fround;

/** The first `count` elements of a tensor's bytes, as float32: ggml's dequantisers, op for op in float32. */
export function dequantize(type: GgmlType, bytes: Uint8Array, count: number): Float32Array {
  const need = tensorBytes(type, count);
  if (bytes.byteLength < need) throw new Error(`A tensor of ${count} elements needs ${need} bytes; got ${bytes.byteLength}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const half = (at: number) => f16ToF32(view.getUint16(at, true));
  const out = new Float32Array(count);
  const { blockBytes } = LAYOUTS[type];
  const blocks = count / LAYOUTS[type].blockElements;
  switch (type) {
    case GgmlType.F32:
      for (let i = 0; i < count; i++) out[i] = view.getFloat32(4 * i, true);
      return out;
    case GgmlType.F16:
      for (let i = 0; i < count; i++) out[i] = half(2 * i);
      return out;
    case GgmlType.BF16:
      for (let i = 0; i < count; i++) {
        halfView.setUint32(0, view.getUint16(2 * i, true) << 16);
        out[i] = halfView.getFloat32(0);
      }
      return out;
    case GgmlType.Q8_0:
      for (let b = 0; b < blocks; b++) {
        const d = half(b * 34);
        for (let e = 0; e < 32; e++) out[b * 32 + e] = d * view.getInt8(b * 34 + 2 + e);
      }
      return out;
    case GgmlType.Q4_0:
    case GgmlType.Q4_1:
    case GgmlType.Q5_0:
    case GgmlType.Q5_1:
    case GgmlType.IQ4_NL: {
      const withMin = type === GgmlType.Q4_1 || type === GgmlType.Q5_1;
      const fifth = type === GgmlType.Q5_0 || type === GgmlType.Q5_1;
      for (let b = 0; b < blocks; b++) {
        const at = b * blockBytes;
        const d = half(at);
        const m = withMin ? half(at + 2) : 0;
        const high = fifth ? view.getUint32(at + (withMin ? 4 : 2), true) : 0;
        const quants = at + (withMin ? 4 : 2) + (fifth ? 4 : 0);
        for (let i = 0; i < 16; i++) {
          const byte = bytes[quants + i]!;
          for (const [e, nibble] of [
            [i, byte & 0x0f],
            [i + 16, byte >> 4],
          ] as const) {
            const q = nibble | (((high >>> e) & 1) << 4);
            let value: number;
            if (type === GgmlType.IQ4_NL) value = d * KVALUES_IQ4NL[q]!;
            else if (withMin) value = f32(f32(d * q) + m);
            else value = d * (q - (fifth ? 16 : 8));
            out[b * 32 + e] = value;
          }
        }
      }
      return out;
    }
    case GgmlType.Q4_K:
    case GgmlType.Q5_K: {
      const fifth = type === GgmlType.Q5_K;
      for (let b = 0; b < blocks; b++) {
        const at = b * blockBytes;
        const d = half(at);
        const dmin = half(at + 2);
        const highs = at + 16;
        const quants = at + 16 + (fifth ? 32 : 0);
        for (let j = 0; j < 8; j++) {
          const { scale, min } = kScaleMin(bytes, at + 4, j);
          const d1 = f32(d * scale);
          const m1 = f32(dmin * min);
          for (let l = 0; l < 32; l++) {
            const byte = bytes[quants + (j >> 1) * 32 + l]!;
            const q = (j & 1 ? byte >> 4 : byte & 0x0f) | (fifth ? ((bytes[highs + l]! >> j) & 1) << 4 : 0);
            out[b * 256 + j * 32 + l] = f32(f32(d1 * q) - m1);
          }
        }
      }
      return out;
    }
    case GgmlType.Q6_K:
      for (let b = 0; b < blocks; b++) {
        const at = b * blockBytes;
        const d = half(at + 208);
        for (let half128 = 0; half128 < 2; half128++) {
          const ql = at + half128 * 64;
          const qh = at + 128 + half128 * 32;
          const sc = at + 192 + half128 * 8;
          for (let l = 0; l < 32; l++) {
            const high = bytes[qh + l]!;
            const quants = [
              (bytes[ql + l]! & 0x0f) | ((high & 3) << 4),
              (bytes[ql + l + 32]! & 0x0f) | (((high >> 2) & 3) << 4),
              (bytes[ql + l]! >> 4) | (((high >> 4) & 3) << 4),
              (bytes[ql + l + 32]! >> 4) | (((high >> 6) & 3) << 4),
            ];
            for (let part = 0; part < 4; part++) {
              const scale = view.getInt8(sc + (l >> 4) + 2 * part);
              out[b * 256 + half128 * 128 + part * 32 + l] = f32(f32(d * scale) * (quants[part]! - 32));
            }
          }
        }
      }
      return out;
    case GgmlType.IQ4_XS:
      for (let b = 0; b < blocks; b++) {
        const at = b * blockBytes;
        const d = half(at);
        const scalesHigh = view.getUint16(at + 2, true);
        for (let j = 0; j < 8; j++) {
          const ls = ((bytes[at + 4 + (j >> 1)]! >> (4 * (j & 1))) & 0x0f) | (((scalesHigh >> (2 * j)) & 3) << 4);
          const dl = f32(d * (ls - 32));
          for (let i = 0; i < 16; i++) {
            const byte = bytes[at + 8 + j * 16 + i]!;
            out[b * 256 + j * 32 + i] = f32(dl * KVALUES_IQ4NL[byte & 0x0f]!);
            out[b * 256 + j * 32 + 16 + i] = f32(dl * KVALUES_IQ4NL[byte >> 4]!);
          }
        }
      }
      return out;
  }
}
