/**
 * GGUF weight matrices in the forms onnxruntime's `MatMulNBits` runs fast. A ggml matrix of
 * dims [K, N] is N rows of K inputs, each row cut into 32-element blocks: exactly MatMulNBits'
 * B layout [N, K/32, blob], once nibbles are reordered (ggml keeps elements 0-15 in the low
 * nibbles and 16-31 in the high ones; MatMulNBits keeps element 2i low and 2i+1 high).
 *
 * Every form is exact, never a re-quantisation:
 * - Q4_0 `d·(q-8)` is MatMulNBits' default 4-bit zero point.
 * - Q4_1 `d·q + m` is `d·(q-8)` plus a correction: each 32-block's input sum times m + 8d.
 * - Q8_0 `d·q` is 8-bit with the default zero point 128 (q stored as q+128). MatMulNBits runs
 *   8 bits fast only with int8 activations; for fp32 activations the same weights become two
 *   4-bit terms, 16·d·hi + d·lo, with the correction -128·d.
 */
import { f16ToF32, GgmlType } from './quant';

/** One 4-bit MatMulNBits term: packed nibbles [N, K/32, 16] and a scale per block. */
export interface NibbleTerm {
  packed: Uint8Array;
  scales: Float32Array;
}

export type Matrix =
  | { kind: 'q4'; n: number; k: number; terms: NibbleTerm[]; zeroPoint: 0 | 8; mins?: Float32Array }
  | { kind: 'q8'; n: number; k: number; bytes: Uint8Array; scales: Float32Array }
  | { kind: 'float'; n: number; k: number; rows: Float32Array };

export type Activations = 'fp32' | 'int8';

const BLOCK = 32;

function blockCount(k: number): number {
  if (k % BLOCK !== 0) throw new Error(`A row of ${k} elements is not a whole number of 32-element blocks`);
  return k / BLOCK;
}

/** Element e of a 32-block, from ggml's nibble order, into MatMulNBits' order. */
function packNibbles(values: (e: number) => number, out: Uint8Array, at: number): void {
  for (let i = 0; i < BLOCK / 2; i++) out[at + i] = values(2 * i) | (values(2 * i + 1) << 4);
}

/** Q4_0/Q4_1 blocks unpacked to one quant per byte, with their scales (and mins). */
export function unpackQ4(bytes: Buffer, count: number, withMin: boolean) {
  const blocks = blockCount(count);
  const stride = withMin ? 20 : 18;
  const first = withMin ? 4 : 2;
  const quants = new Uint8Array(count);
  const scales = new Float32Array(blocks);
  const mins = withMin ? new Float32Array(blocks) : undefined;
  for (let b = 0; b < blocks; b++) {
    const at = b * stride;
    scales[b] = f16ToF32(bytes.readUInt16LE(at));
    if (mins) mins[b] = f16ToF32(bytes.readUInt16LE(at + 2));
    for (let i = 0; i < BLOCK / 2; i++) {
      const byte = bytes[at + first + i]!;
      quants[b * BLOCK + i] = byte & 0x0f;
      quants[b * BLOCK + BLOCK / 2 + i] = byte >> 4;
    }
  }
  return { quants, scales, mins };
}

function fromQ4(bytes: Buffer, n: number, k: number, withMin: boolean): Matrix {
  const { quants, scales, mins } = unpackQ4(bytes, n * k, withMin);
  const packed = new Uint8Array(quants.length / 2);
  for (let b = 0; b < scales.length; b++) packNibbles((e) => quants[b * BLOCK + e]!, packed, b * 16);
  // Q4_1 as d·(q - 8) + (m + 8d): centred quants, so int8 activations' rounding errors are
  // multiplied by |q - 8| ≤ 8 rather than q ≤ 15 (half the error), and no zero-point input.
  const centred = mins?.map((m, b) => m + 8 * scales[b]!);
  return { kind: 'q4', n, k, terms: [{ packed, scales }], zeroPoint: 8, mins: centred };
}

function fromQ8(bytes: Buffer, n: number, k: number, activations: Activations): Matrix {
  const blocks = n * blockCount(k);
  const shifted = new Uint8Array(blocks * BLOCK);
  const scales = new Float32Array(blocks);
  for (let b = 0; b < blocks; b++) {
    scales[b] = f16ToF32(bytes.readUInt16LE(b * 34));
    for (let e = 0; e < BLOCK; e++) shifted[b * BLOCK + e] = bytes[b * 34 + 2 + e]! ^ 0x80; // int8 q → q + 128
  }
  if (activations === 'int8') return { kind: 'q8', n, k, bytes: shifted, scales };
  const high = new Uint8Array(blocks * 16);
  const low = new Uint8Array(blocks * 16);
  for (let b = 0; b < blocks; b++) {
    packNibbles((e) => shifted[b * BLOCK + e]! >> 4, high, b * 16);
    packNibbles((e) => shifted[b * BLOCK + e]! & 0x0f, low, b * 16);
  }
  const terms = [
    { packed: high, scales: scales.map((d) => 16 * d) },
    { packed: low, scales },
  ];
  return { kind: 'q4', n, k, terms, zeroPoint: 0, mins: scales.map((d) => -128 * d) };
}

function fromFloat(bytes: Buffer, type: GgmlType, n: number, k: number): Matrix {
  const rows = new Float32Array(n * k);
  for (let i = 0; i < rows.length; i++) rows[i] = type === GgmlType.F32 ? bytes.readFloatLE(4 * i) : f16ToF32(bytes.readUInt16LE(2 * i));
  return { kind: 'float', n, k, rows };
}

/** A GGUF matrix (ggml dims [k, n]) in its MatMulNBits form. */
export function toMatrix(type: GgmlType, dims: readonly number[], bytes: Buffer, activations: Activations): Matrix {
  const [k, n] = dims;
  if (dims.length !== 2 || k === undefined || n === undefined) throw new Error(`Expected a matrix, got dims [${dims.join(', ')}]`);
  switch (type) {
    case GgmlType.Q4_0:
      return fromQ4(bytes, n, k, false);
    case GgmlType.Q4_1:
      return fromQ4(bytes, n, k, true);
    case GgmlType.Q8_0:
      return fromQ8(bytes, n, k, activations);
    case GgmlType.F32:
    case GgmlType.F16:
      return fromFloat(bytes, type, n, k);
    default:
      throw new Error(`Weights of ggml type ${String(type)} are not supported`);
  }
}

function concat<T extends Uint8Array | Float32Array>(parts: T[], make: (length: number) => T): T {
  const out = make(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * Stacks matrices that read the same input (q, k and v; gate and up) into one, so one node
 * does the work of several. Only matrices of one form stack; others answer undefined.
 */
export function stackRows(matrices: Matrix[]): Matrix | undefined {
  const [first] = matrices;
  if (!first || matrices.some((m) => m.k !== first.k)) return undefined;
  const n = matrices.reduce((sum, m) => sum + m.n, 0);
  if (first.kind === 'float') {
    if (!matrices.every((m) => m.kind === 'float')) return undefined;
    return {
      kind: 'float',
      n,
      k: first.k,
      rows: concat(
        matrices.map((m) => m.rows),
        (l) => new Float32Array(l),
      ),
    };
  }
  if (first.kind === 'q8') {
    if (!matrices.every((m) => m.kind === 'q8')) return undefined;
    const bytes = concat(
      matrices.map((m) => m.bytes),
      (l) => new Uint8Array(l),
    );
    return {
      kind: 'q8',
      n,
      k: first.k,
      bytes,
      scales: concat(
        matrices.map((m) => m.scales),
        (l) => new Float32Array(l),
      ),
    };
  }
  const q4 = matrices.filter((m) => m.kind === 'q4');
  const same = (m: (typeof q4)[number]) =>
    m.zeroPoint === first.zeroPoint && m.terms.length === first.terms.length && !m.mins === !first.mins;
  if (q4.length !== matrices.length || !q4.every(same)) return undefined;
  const terms = first.terms.map((_, t) => ({
    packed: concat(
      q4.map((m) => m.terms[t]!.packed),
      (l) => new Uint8Array(l),
    ),
    scales: concat(
      q4.map((m) => m.terms[t]!.scales),
      (l) => new Float32Array(l),
    ),
  }));
  const mins = first.mins
    ? concat(
        q4.map((m) => m.mins!),
        (l) => new Float32Array(l),
      )
    : undefined;
  return { kind: 'q4', n, k: first.k, terms, zeroPoint: first.zeroPoint, mins };
}
