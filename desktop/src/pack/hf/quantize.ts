/**
 * Pack-time quantisation of float weights into ggml's Q8_0 and Q4_0 blocks (32 elements, an f16
 * scale), rounding to nearest as ggml's reference quantisers do (quantize_row_q8_0_ref,
 * quantize_row_q4_0_ref), so the blocks then take the packer's existing, exact path onto
 * MatMulNBits, as they would from a GGUF llama.cpp quantised.
 */
import { f32ToF16, GgmlType } from '../quant';

export type PackQuant = 'q4' | 'q8';
export const QUANT_TYPES: Record<PackQuant, GgmlType> = { q4: GgmlType.Q4_0, q8: GgmlType.Q8_0 };

export function quantizeBlocks(type: GgmlType.Q8_0 | GgmlType.Q4_0, values: Float32Array): Buffer {
  const blocks = values.length / 32;
  if (!Number.isInteger(blocks)) throw new Error(`${values.length} values do not fill whole blocks of 32`);
  const q8 = type === GgmlType.Q8_0;
  const blockBytes = q8 ? 34 : 18;
  const out = Buffer.alloc(blocks * blockBytes);
  for (let b = 0; b < blocks; b++) {
    const block = values.subarray(32 * b, 32 * b + 32);
    const at = b * blockBytes;
    // Q4_0 keeps the sign of the largest magnitude, so it lands exactly on code 0 (−8·d).
    let extreme = 0;
    for (const v of block) if (Math.abs(v) > Math.abs(extreme)) extreme = v;
    const d = q8 ? Math.abs(extreme) / 127 : extreme / -8;
    const inverse = d ? 1 / d : 0;
    out.writeUInt16LE(f32ToF16(d), at);
    if (q8) {
      for (let e = 0; e < 32; e++) out.writeInt8(Math.round(block[e]! * inverse), at + 2 + e);
    } else {
      const code = (e: number) => Math.min(15, Math.trunc(block[e]! * inverse + 8.5));
      for (let i = 0; i < 16; i++) out[at + 2 + i] = code(i) | (code(i + 16) << 4);
    }
  }
  return out;
}

/** float32 values as the bytes of an F32 tensor. */
export function f32Bytes(values: Float32Array): Buffer {
  return Buffer.from(values.buffer, values.byteOffset, values.byteLength);
}
