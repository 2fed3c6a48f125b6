/**
 * GGUF weight matrices in the forms onnxruntime's `MatMulNBits` runs fast. A ggml matrix of
 * dims [K, N] is N rows of K inputs, each row cut into blocks of 16 or 32 elements: exactly
 * MatMulNBits' B layout [N, K/block, blob], once block-codes.ts has turned each type into codes,
 * scales, a zero point and per-block mins, and 4-bit codes are packed two a byte (element 2i
 * low, 2i+1 high).
 *
 * Every form is exact, never a re-quantisation:
 * - 4-bit codes (Q4_0, Q4_1, Q4_K) are one 4-bit MatMulNBits term.
 * - Mins are a correction: each block's input sum times its min (the graph's Gemm).
 * - 8-bit codes (Q5_*, Q6_K, Q8_0, IQ4_*) are 8-bit MatMulNBits with int8 activations. It runs
 *   8 bits fast only then; for fp32 activations the same codes become two 4-bit terms,
 *   16·s·(hi − 8) + s·lo: the high term's zero point 8 is the codes' 128, so no min (and no
 *   correction node) is stored for them.
 * - Q4_1 keeps the centred form with fp32 activations too (as packages made before K-quants
 *   have it); the other types with a min are plain, so exact, with fp32 activations.
 */
import { blockCodes, type BlockCodes } from './block-codes';
import type { Embedding } from './linear';
import { dequantize, GgmlType } from './quant';

/** One 4-bit MatMulNBits term: packed nibbles [N, K/block, block/2], a scale per block, and the zero point of every block. */
export interface NibbleTerm {
  packed: Uint8Array;
  scales: Float32Array;
  zeroPoint: 0 | 8;
}

export type Matrix =
  | { kind: 'q4'; n: number; k: number; block: number; terms: NibbleTerm[]; mins?: Float32Array }
  | { kind: 'q8'; n: number; k: number; block: number; bytes: Uint8Array; scales: Float32Array; mins?: Float32Array }
  | { kind: 'float'; n: number; k: number; rows: Float32Array };

export type Activations = 'fp32' | 'int8';

/** 4-bit values, one a byte, packed two a byte in MatMulNBits' order (blocks are even-sized). */
function packNibbles(values: Uint8Array, nibble: (v: number) => number): Uint8Array {
  const packed = new Uint8Array(values.length / 2);
  for (let i = 0; i < packed.length; i++) packed[i] = nibble(values[2 * i]!) | (nibble(values[2 * i + 1]!) << 4);
  return packed;
}

/** Block codes as a matrix of n rows of k. */
function fromCodes(codes: BlockCodes, n: number, k: number, activations: Activations): Matrix {
  const { bits, block, scales, zeroPoint, mins } = codes;
  if (bits === 4) {
    const packed = packNibbles(codes.codes, (v) => v);
    return { kind: 'q4', n, k, block, terms: [{ packed, scales, zeroPoint: zeroPoint as 0 | 8 }], mins };
  }
  if (activations === 'int8') {
    if (zeroPoint !== 128) throw new Error(`unreachable: 8-bit codes for int8 activations sit around 128, not ${zeroPoint}`);
    return { kind: 'q8', n, k, block, bytes: codes.codes, scales, mins };
  }
  if (zeroPoint !== 0 && zeroPoint !== 128) throw new Error(`unreachable: 8-bit codes sit around 0 or 128, not ${zeroPoint}`);
  const terms: NibbleTerm[] = [
    { packed: packNibbles(codes.codes, (v) => v >> 4), scales: scales.map((s) => 16 * s), zeroPoint: zeroPoint === 128 ? 8 : 0 },
    { packed: packNibbles(codes.codes, (v) => v & 0x0f), scales, zeroPoint: 0 },
  ];
  return { kind: 'q4', n, k, block, terms, mins };
}

/** Plain min types for fp32 (exact); centred ones for int8 (and Q4_1's form of old). */
function centred(type: GgmlType, activations: Activations): boolean {
  return activations === 'int8' || type === GgmlType.Q4_1;
}

function dimsOf(dims: readonly number[]): { k: number; n: number } {
  const [k, n] = dims;
  if (dims.length !== 2 || k === undefined || n === undefined) throw new Error(`Expected a matrix, got dims [${dims.join(', ')}]`);
  return { k, n };
}

/** A GGUF matrix (ggml dims [k, n]) in its MatMulNBits form. */
export function toMatrix(type: GgmlType, dims: readonly number[], bytes: Uint8Array, activations: Activations): Matrix {
  const { k, n } = dimsOf(dims);
  const codes = blockCodes(type, bytes, n * k, centred(type, activations));
  if (!codes) return { kind: 'float', n, k, rows: dequantize(type, bytes, n * k) };
  if (k % codes.block !== 0) throw new Error(`A row of ${k} elements is not a whole number of ${codes.block}-element blocks`);
  return fromCodes(codes, n, k, activations);
}

/**
 * The token embedding (ggml dims [hidden, vocab]): a quantised one keeps one code a byte, looked
 * up per token. Its 8-bit codes without mins are the int8 matrix form's bytes too, so a tied head
 * in the same block can store them once.
 */
export function toEmbedding(type: GgmlType, dims: readonly number[], bytes: Uint8Array): Embedding {
  const { k: hidden, n: vocab } = dimsOf(dims);
  const codes = blockCodes(type, bytes, vocab * hidden, false);
  if (!codes) return { kind: 'float', vocab, hidden, rows: dequantize(type, bytes, vocab * hidden) };
  const { block, scales, mins, zeroPoint: offset } = codes;
  const shared: Matrix | undefined =
    codes.bits === 8 && !mins ? { kind: 'q8', n: vocab, k: hidden, block, bytes: codes.codes, scales } : undefined;
  return { kind: 'blocks', vocab, hidden, block, bytes: codes.codes, offset, scales, mins, shared };
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
  const blockOf = (m: Matrix) => (m.kind === 'float' ? 0 : m.block);
  if (!first || matrices.some((m) => m.k !== first.k || blockOf(m) !== blockOf(first))) return undefined;
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
    const q8 = matrices.filter((m) => m.kind === 'q8');
    if (q8.length !== matrices.length || !q8.every((m) => !m.mins === !first.mins)) return undefined;
    const bytes = concat(
      q8.map((m) => m.bytes),
      (l) => new Uint8Array(l),
    );
    const scales = concat(
      q8.map((m) => m.scales),
      (l) => new Float32Array(l),
    );
    const mins = first.mins
      ? concat(
          q8.map((m) => m.mins!),
          (l) => new Float32Array(l),
        )
      : undefined;
    return { kind: 'q8', n, k: first.k, block: first.block, bytes, scales, mins };
  }
  const q4 = matrices.filter((m) => m.kind === 'q4');
  const same = (m: (typeof q4)[number]) =>
    m.terms.length === first.terms.length &&
    m.terms.every((term, t) => term.zeroPoint === first.terms[t]!.zeroPoint) &&
    !m.mins === !first.mins;
  if (q4.length !== matrices.length || !q4.every(same)) return undefined;
  const terms = first.terms.map((term, t) => ({
    zeroPoint: term.zeroPoint,
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
  return { kind: 'q4', n, k: first.k, block: first.block, terms, mins };
}

/**
 * `count` of a quantised matrix's rows from `start`, as views over its arrays (nothing copied).
 * Without its mins: a min corrects the whole product, so the caller applies the matrix's once.
 */
export function rowRange(matrix: Exclude<Matrix, { kind: 'float' }>, start: number, count: number): Exclude<Matrix, { kind: 'float' }> {
  const { k, block } = matrix;
  const blocks = k / block;
  const rows = <T extends Uint8Array | Float32Array>(values: T, width: number): T =>
    values.subarray(start * width, (start + count) * width) as T;
  if (matrix.kind === 'q8') return { kind: 'q8', n: count, k, block, bytes: rows(matrix.bytes, k), scales: rows(matrix.scales, blocks) };
  const terms = matrix.terms.map((term) => ({
    zeroPoint: term.zeroPoint,
    packed: rows(term.packed, k / 2),
    scales: rows(term.scales, blocks),
  }));
  return { kind: 'q4', n: count, k, block, terms };
}
