/**
 * Every quantised ggml type as one form MatMulNBits can hold exactly: per block of 16 or 32
 * elements, an unsigned code per element, a float scale, an integer zero point and, for the
 * types with a min, a float added per block (applied by the graph as block sums × mins):
 *   w = scale·(code − zeroPoint) + min
 * All of ggml's arithmetic that builds a scale (d·sc, d·(ls − 32)) is float32 and exact here, so
 * every weight equals ggml's own dequantised value. 4-bit codes stay 4-bit; wider or non-linear
 * ones (5 and 6 bits, IQ4's table) become 8-bit codes around MatMulNBits' 8-bit zero point 128:
 *   Q4_0   4-bit q, zero point 8                 Q5_0   8-bit q + 112
 *   Q6_K   8-bit q + 96, blocks of 16            Q8_0   8-bit q + 128
 *   IQ4_NL, IQ4_XS  8-bit kvalues[q] + 128       (all 8-bit: zero point 128)
 * The types with a min (Q4_1, Q4_K at 4 bits; Q5_1, Q5_K at 8) come in two forms:
 * - plain: code q, zero point 0, min −dmin·m (or +m): exact, as the fp32 path wants;
 * - centred: code around the zero point (q with 8 at 4 bits, q + 112 with 128 at 8 bits) and
 *   the min folded with it (+8·scale, +16·scale), rounded once to float32. With int8 activations
 *   the rounding errors are multiplied by |q − zero point| rather than q: half the error.
 */
import { f16ToF32, GgmlType, KVALUES_IQ4NL, kScaleMin, tensorBytes } from './quant';

export interface BlockCodes {
  bits: 4 | 8;
  /** Elements that share a scale (and min). */
  block: 16 | 32;
  /** One code per element, in the tensor's element order. */
  codes: Uint8Array;
  scales: Float32Array;
  zeroPoint: number;
  mins?: Float32Array;
}

/** A type decoded: raw quant per element (or table index), scale and min per block. */
interface Decoded {
  block: 16 | 32;
  quants: Uint8Array;
  scales: Float32Array;
  mins?: Float32Array;
}

const f32 = Math.fround;

/** The 32-element types: f16 d, [f16 m], [u32 fifth bits], 16 bytes of nibbles. */
function decode32(bytes: Uint8Array, count: number, stride: number, withMin: boolean, fifth: boolean): Decoded {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const blocks = count / 32;
  const quants = new Uint8Array(count);
  const scales = new Float32Array(blocks);
  const mins = withMin ? new Float32Array(blocks) : undefined;
  for (let b = 0; b < blocks; b++) {
    const at = b * stride;
    scales[b] = f16ToF32(view.getUint16(at, true));
    if (mins) mins[b] = f16ToF32(view.getUint16(at + 2, true));
    const high = fifth ? view.getUint32(at + (withMin ? 4 : 2), true) : 0;
    const first = at + (withMin ? 4 : 2) + (fifth ? 4 : 0);
    for (let i = 0; i < 16; i++) {
      const byte = bytes[first + i]!;
      quants[b * 32 + i] = (byte & 0x0f) | (((high >>> i) & 1) << 4);
      quants[b * 32 + 16 + i] = (byte >> 4) | (((high >>> (i + 16)) & 1) << 4);
    }
  }
  return { block: 32, quants, scales, mins };
}

/** Q4_K and Q5_K: 8 sub-blocks of 32 a super-block, scale d·sc, min −dmin·m. */
function decodeK(bytes: Uint8Array, count: number, fifth: boolean): Decoded {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const stride = fifth ? 176 : 144;
  const quants = new Uint8Array(count);
  const scales = new Float32Array(count / 32);
  const mins = new Float32Array(count / 32);
  for (let b = 0; b < count / 256; b++) {
    const at = b * stride;
    const d = f16ToF32(view.getUint16(at, true));
    const dmin = f16ToF32(view.getUint16(at + 2, true));
    const nibbles = at + 16 + (fifth ? 32 : 0);
    for (let j = 0; j < 8; j++) {
      const { scale, min } = kScaleMin(bytes, at + 4, j);
      scales[b * 8 + j] = f32(d * scale);
      mins[b * 8 + j] = -f32(dmin * min);
      const shift = j & 1 ? 4 : 0;
      for (let l = 0; l < 32; l++) {
        const low = (bytes[nibbles + (j >> 1) * 32 + l]! >> shift) & 0x0f;
        quants[b * 256 + j * 32 + l] = low | (fifth ? ((bytes[at + 16 + l]! >> j) & 1) << 4 : 0);
      }
    }
  }
  return { block: 32, quants, scales, mins };
}

/** Q6_K: 16 sub-blocks of 16 a super-block, scale d·sc (sc int8), 6-bit q. */
function decodeQ6K(bytes: Uint8Array, count: number): Decoded {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const quants = new Uint8Array(count);
  const scales = new Float32Array(count / 16);
  for (let b = 0; b < count / 256; b++) {
    const at = b * 210;
    const d = f16ToF32(view.getUint16(at + 208, true));
    for (let s = 0; s < 16; s++) scales[b * 16 + s] = f32(d * view.getInt8(at + 192 + s));
    // Each half of 128 elements: 64 bytes of low nibbles and 32 bytes holding four 2-bit highs.
    for (let h = 0; h < 2; h++) {
      for (let l = 0; l < 32; l++) {
        const high = bytes[at + 128 + h * 32 + l]!;
        const low = (i: number, shift: number) => (bytes[at + h * 64 + i]! >> shift) & 0x0f;
        const out = b * 256 + h * 128 + l;
        quants[out] = low(l, 0) | ((high & 3) << 4);
        quants[out + 32] = low(l + 32, 0) | (((high >> 2) & 3) << 4);
        quants[out + 64] = low(l, 4) | (((high >> 4) & 3) << 4);
        quants[out + 96] = low(l + 32, 4) | (((high >> 6) & 3) << 4);
      }
    }
  }
  return { block: 16, quants, scales };
}

/** IQ4_XS: 8 sub-blocks of 32 a super-block, scale d·(ls − 32), 4-bit table indices. */
function decodeIQ4XS(bytes: Uint8Array, count: number): Decoded {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const quants = new Uint8Array(count);
  const scales = new Float32Array(count / 32);
  for (let b = 0; b < count / 256; b++) {
    const at = b * 136;
    const d = f16ToF32(view.getUint16(at, true));
    const scalesHigh = view.getUint16(at + 2, true);
    for (let j = 0; j < 8; j++) {
      const ls = ((bytes[at + 4 + (j >> 1)]! >> (4 * (j & 1))) & 0x0f) | (((scalesHigh >> (2 * j)) & 3) << 4);
      scales[b * 8 + j] = f32(d * (ls - 32));
      for (let i = 0; i < 16; i++) {
        const byte = bytes[at + 8 + j * 16 + i]!;
        quants[b * 256 + j * 32 + i] = byte & 0x0f;
        quants[b * 256 + j * 32 + 16 + i] = byte >> 4;
      }
    }
  }
  return { block: 32, quants, scales };
}

/** Q8_0: int8 q as q + 128. */
function decodeQ8(bytes: Uint8Array, count: number): Decoded {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const quants = new Uint8Array(count);
  const scales = new Float32Array(count / 32);
  for (let b = 0; b < count / 32; b++) {
    scales[b] = f16ToF32(view.getUint16(b * 34, true));
    for (let e = 0; e < 32; e++) quants[b * 32 + e] = bytes[b * 34 + 2 + e]! ^ 0x80;
  }
  return { block: 32, quants, scales };
}

const IQ4_CODES = Uint8Array.from(KVALUES_IQ4NL, (v) => v + 128);

/** Codes at 8 bits around 128: q + shift, or the table's value + 128. */
function eightBit({ block, quants, scales }: Decoded, code: (q: number) => number): BlockCodes {
  return { bits: 8, block, codes: quants.map(code), scales, zeroPoint: 128 };
}

/** A type with a min whose quants have `levels` values, plain or centred (see above). */
function withMin({ block, quants, scales, mins }: Decoded, bits: 4 | 8, levels: number, centred: boolean): BlockCodes {
  if (!centred) return { bits, block, codes: quants, scales, zeroPoint: 0, mins };
  const zeroPoint = bits === 4 ? 8 : 128;
  const shift = zeroPoint - levels / 2;
  const codes = shift ? quants.map((q) => q + shift) : quants;
  return { bits, block, codes, scales, zeroPoint, mins: mins!.map((m, b) => m + (levels / 2) * scales[b]!) };
}

/** A quantised tensor's `count` elements as block codes; float types answer undefined. */
export function blockCodes(type: GgmlType, bytes: Uint8Array, count: number, centred: boolean): BlockCodes | undefined {
  const need = tensorBytes(type, count);
  if (bytes.byteLength < need) throw new Error(`A tensor of ${count} elements needs ${need} bytes; got ${bytes.byteLength}`);
  switch (type) {
    case GgmlType.F32:
    case GgmlType.F16:
    case GgmlType.BF16:
      return undefined;
    case GgmlType.Q4_0: {
      const { block, quants, scales } = decode32(bytes, count, 18, false, false);
      return { bits: 4, block, codes: quants, scales, zeroPoint: 8 };
    }
    case GgmlType.Q4_1:
      return withMin(decode32(bytes, count, 20, true, false), 4, 16, centred);
    case GgmlType.Q5_0:
      return eightBit(decode32(bytes, count, 22, false, true), (q) => q + 112);
    case GgmlType.Q5_1:
      return withMin(decode32(bytes, count, 24, true, true), 8, 32, centred);
    case GgmlType.Q8_0:
      return eightBit(decodeQ8(bytes, count), (q) => q);
    case GgmlType.Q4_K:
      return withMin(decodeK(bytes, count, false), 4, 16, centred);
    case GgmlType.Q5_K:
      return withMin(decodeK(bytes, count, true), 8, 32, centred);
    case GgmlType.Q6_K:
      return eightBit(decodeQ6K(bytes, count), (q) => q + 96);
    case GgmlType.IQ4_NL:
      return eightBit(decode32(bytes, count, 18, false, false), (q) => IQ4_CODES[q]!);
    case GgmlType.IQ4_XS:
      return eightBit(decodeIQ4XS(bytes, count), (q) => IQ4_CODES[q]!);
  }
}
