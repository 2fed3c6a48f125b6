/**
 * ggml's tensor types that llama GGUFs of this size use, their block layouts, and reference
 * dequantisers to float32. Blocks hold 32 elements; for the 4-bit types, elements 0-15 sit in
 * the low nibbles of the 16 quant bytes and elements 16-31 in the high ones.
 *   F32   4 bytes per element
 *   F16   2 bytes per element (IEEE half)
 *   Q4_0  f16 d, 16 bytes: (q - 8)·d
 *   Q4_1  f16 d, f16 m, 16 bytes: q·d + m
 *   Q8_0  f16 d, 32 int8: q·d
 */

export enum GgmlType {
  F32 = 0,
  F16 = 1,
  Q4_0 = 2,
  Q4_1 = 3,
  Q8_0 = 8,
}

const LAYOUTS: Record<GgmlType, { blockElements: number; blockBytes: number }> = {
  [GgmlType.F32]: { blockElements: 1, blockBytes: 4 },
  [GgmlType.F16]: { blockElements: 1, blockBytes: 2 },
  [GgmlType.Q4_0]: { blockElements: 32, blockBytes: 18 },
  [GgmlType.Q4_1]: { blockElements: 32, blockBytes: 20 },
  [GgmlType.Q8_0]: { blockElements: 32, blockBytes: 34 },
};

export function isSupportedType(type: number): type is GgmlType {
  return Object.hasOwn(LAYOUTS, type);
}

/** Bytes `count` elements take; refuses counts that do not fill whole blocks. */
export function tensorBytes(type: GgmlType, count: number): number {
  const { blockElements, blockBytes } = LAYOUTS[type];
  if (count % blockElements !== 0) throw new Error(`${count} elements do not fill whole blocks of ${blockElements}`);
  return (count / blockElements) * blockBytes;
}

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

/** The first `count` elements of a tensor's bytes, as float32. */
export function dequantize(type: GgmlType, bytes: Uint8Array, count: number): Float32Array {
  const need = tensorBytes(type, count);
  if (bytes.byteLength < need) throw new Error(`A tensor of ${count} elements needs ${need} bytes; got ${bytes.byteLength}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(count);
  switch (type) {
    case GgmlType.F32:
      for (let i = 0; i < count; i++) out[i] = view.getFloat32(4 * i, true);
      return out;
    case GgmlType.F16:
      for (let i = 0; i < count; i++) out[i] = f16ToF32(view.getUint16(2 * i, true));
      return out;
    case GgmlType.Q8_0:
      for (let b = 0; b < count / 32; b++) {
        const d = f16ToF32(view.getUint16(b * 34, true));
        for (let e = 0; e < 32; e++) out[b * 32 + e] = d * view.getInt8(b * 34 + 2 + e);
      }
      return out;
    case GgmlType.Q4_0:
    case GgmlType.Q4_1: {
      const withMin = type === GgmlType.Q4_1;
      const stride = withMin ? 20 : 18;
      for (let b = 0; b < count / 32; b++) {
        const d = f16ToF32(view.getUint16(b * stride, true));
        const m = withMin ? f16ToF32(view.getUint16(b * stride + 2, true)) : 0;
        const quants = b * stride + (withMin ? 4 : 2);
        for (let i = 0; i < 16; i++) {
          const byte = bytes[quants + i]!;
          out[b * 32 + i] = withMin ? (byte & 0x0f) * d + m : ((byte & 0x0f) - 8) * d;
          out[b * 32 + 16 + i] = withMin ? (byte >> 4) * d + m : ((byte >> 4) - 8) * d;
        }
      }
      return out;
    }
  }
}
