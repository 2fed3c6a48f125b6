/**
 * @jest-environment ./desktop/testing/native-arrays.environment.cjs
 *
 * Every tensor type the packer reads, on random valid blocks: the MatMulNBits form's weights
 * must equal the reference dequantiser's (written from ggml's block layouts) bit for bit, and a
 * real onnxruntime MatMulNBits graph must compute what an fp32 MatMul on the reference weights does.
 */
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { seededRandom } from '../engine/sampler';
import { readGguf } from './gguf';
import { Weights } from './linear';
import { toEmbedding, toMatrix, type Activations, type Matrix } from './matrices';
import { ExternalWeights } from './onnx/external-weights';
import { DataType, GraphBuilder } from './onnx/graph';
import { dequantize, GgmlType, typeName } from './quant';
import { quantizeMore, randomBlocks } from '@meshwork/testkit/desktop/ggml-blocks';
import { quantize, writeGguf } from '@meshwork/testkit/desktop/tiny-gguf';

const TYPES = [
  GgmlType.F32,
  GgmlType.F16,
  GgmlType.BF16,
  GgmlType.Q4_0,
  GgmlType.Q4_1,
  GgmlType.Q5_0,
  GgmlType.Q5_1,
  GgmlType.Q8_0,
  GgmlType.Q4_K,
  GgmlType.Q5_K,
  GgmlType.Q6_K,
  GgmlType.IQ4_NL,
  GgmlType.IQ4_XS,
];
const N = 24;
const K = 512; // two super-blocks a row
const S = 3;

/** The weights a matrix form stands for, [N, K], as MatMulNBits and the mins' Gemm apply them. */
function formWeights(matrix: Matrix): { weights: Float32Array; mins: Float64Array } {
  const { n, k } = matrix;
  const weights = new Float32Array(n * k);
  const mins = new Float64Array(n * k);
  if (matrix.kind === 'float') return { weights: matrix.rows, mins };
  for (let i = 0; i < n * k; i++) {
    const b = Math.floor(i / matrix.block);
    let value = 0; // exact in float64: scales of 24 bits times codes of 8
    if (matrix.kind === 'q8') value = matrix.scales[b]! * (matrix.bytes[i]! - 128);
    else {
      const nibble = (packed: Uint8Array) => (packed[i >> 1]! >> (i & 1 ? 4 : 0)) & 0x0f;
      for (const term of matrix.terms) value += term.scales[b]! * (nibble(term.packed) - term.zeroPoint);
    }
    if (matrix.mins) {
      mins[i] = matrix.mins[b]!;
      value += matrix.mins[b]!;
    }
    weights[i] = value;
  }
  return { weights, mins };
}

/** Answers the first index where the two differ (±0 alike), or -1. */
function firstDifference(a: Float32Array, b: Float32Array): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && !(Number.isNaN(a[i]) && Number.isNaN(b[i]))) return i;
  return -1;
}

/** Runs `matrix` through the packer's own graph code, on `x` [S, K]: answers [S, N]. */
async function product(matrix: Matrix, activations: Activations, x: Float32Array): Promise<Float32Array> {
  const g = new GraphBuilder('product');
  const w = new Weights(g, activations);
  const y = w.linear(g.input('x', DataType.FLOAT, [S, matrix.k]), matrix, 'w');
  g.output(y, DataType.FLOAT, [S, matrix.n]);
  const session = await InferenceSession.create(g.model().toBuffer(), { intraOpNumThreads: 1 });
  try {
    const out = await session.run({ x: new Tensor('float32', x, [S, matrix.k]) });
    return out[y]!.data as Float32Array;
  } finally {
    await session.release();
  }
}

/** The forms that fold their zero point into the min: exact up to that sum's one float32 rounding. */
const centredWithMins = (type: GgmlType, activations: Activations) =>
  type === GgmlType.Q4_1 || (activations === 'int8' && [GgmlType.Q4_K, GgmlType.Q5_1, GgmlType.Q5_K].includes(type));

/**
 * Random blocks of `type` in rows of `k`, through the packer's graph with `activations`, against
 * an fp32 MatMul on the reference weights: within float error (and int8 rounding).
 */
async function expectReferenceProduct(type: GgmlType, k: number, activations: Activations, random: () => number): Promise<Matrix> {
  // Scales of ordinary sizes here: the comparison is of sums, not of float extremes.
  const blocks = randomBlocks(type, N * k, seededRandom(type + 100), { min: 8, max: 18 });
  const weights = dequantize(type, blocks, N * k);
  const x = Float32Array.from({ length: S * k }, () => random() * 2 - 1);
  const matrix = toMatrix(type, [k, N], blocks, activations);
  const actual = await product(matrix, activations, x);
  const expected = await product({ kind: 'float', n: N, k, rows: weights }, 'fp32', x);
  const { weights: form, mins } = formWeights(matrix);
  for (let s = 0; s < S; s++) {
    for (let j = 0; j < N; j++) {
      // Float error scales with the sum of magnitudes; int8 activations' rounding (a 254th of
      // each block's largest input) with the MatMulNBits part's.
      let magnitude = 0;
      let quantised = 0;
      for (let i = 0; i < k; i++) {
        const xi = Math.abs(x[s * k + i]!);
        magnitude += xi * (Math.abs(weights[j * k + i]!) + Math.abs(mins[j * k + i]!));
        quantised += Math.abs(form[j * k + i]! - mins[j * k + i]!);
      }
      const tolerance = 1e-5 * magnitude + (activations === 'int8' ? quantised / 127 : 0);
      const difference = Math.abs(actual[s * N + j]! - expected[s * N + j]!);
      if (!(difference <= tolerance)) expect(`[${s}, ${j}]: ${actual[s * N + j]}`).toBe(`${expected[s * N + j]} ± ${tolerance}`);
    }
  }
  return matrix;
}

describe.each(TYPES.map((type) => [typeName(type), type] as const))('%s', (_, type) => {
  const random = seededRandom(type + 1);
  const bytes = randomBlocks(type, N * K, random);
  const reference = dequantize(type, bytes, N * K);

  it.each(['fp32', 'int8'] as const)('with %s activations the form holds the reference weights exactly', (activations) => {
    const matrix = toMatrix(type, [K, N], bytes, activations);
    const { weights, mins } = formWeights(matrix);
    if (!centredWithMins(type, activations)) {
      const at = firstDifference(weights, reference);
      expect(at < 0 ? 'equal' : `element ${at}: ${weights[at]} against ${reference[at]}`).toBe('equal');
      return;
    }
    for (let i = 0; i < N * K; i++) {
      const bound = 2 ** -23 * Math.max(Math.abs(reference[i]!), Math.abs(mins[i]!), Math.abs(weights[i]! - mins[i]!));
      if (Math.abs(weights[i]! - reference[i]!) > bound) expect(`element ${i}: ${weights[i]}`).toBe(`${reference[i]}`);
    }
  });

  it.each(['fp32', 'int8'] as const)('with %s activations onnxruntime computes the reference product', async (activations) => {
    await expectReferenceProduct(type, K, activations, random);
  });

  it('the token embedding looks up the reference rows exactly', async () => {
    const vocab = N;
    const embedding = toEmbedding(type, [K, vocab], bytes);
    const g = new GraphBuilder('embedding');
    const rows = new Weights(g, 'fp32').embed(g.input('ids', DataType.INT64, [1, 'sequence']), embedding);
    g.output(rows, DataType.FLOAT, ['sequence', K]);
    const ids = [5, 0, vocab - 1, 5];
    const session = await InferenceSession.create(g.model().toBuffer(), { intraOpNumThreads: 1 });
    try {
      const out = await session.run({ ids: new Tensor('int64', BigInt64Array.from(ids.map(BigInt)), [1, ids.length]) });
      const actual = out[rows]!.data as Float32Array;
      const expected = new Float32Array(ids.length * K);
      ids.forEach((id, row) => expected.set(reference.subarray(id * K, (id + 1) * K), row * K));
      const at = firstDifference(actual, expected);
      expect(at < 0 ? 'equal' : `element ${at}: ${actual[at]} against ${expected[at]}`).toBe('equal');
    } finally {
      await session.release();
    }
  });

  it("test kit's quantiser writes blocks that dequantise close to their values", () => {
    const values = Float32Array.from({ length: 2 * K }, () => random() * 2 - 1);
    const back = dequantize(type, quantize(type, values), values.length);
    // A step of each grid at most (symmetric types clamp one end a whole step), plus the rounding of 6-bit scales.
    const bound = {
      [GgmlType.F32]: 2 ** -10,
      [GgmlType.F16]: 2 ** -10,
      [GgmlType.BF16]: 2 ** -7,
      [GgmlType.Q4_0]: 0.13,
      [GgmlType.Q4_1]: 0.08,
      [GgmlType.Q5_0]: 0.07,
      [GgmlType.Q5_1]: 0.045,
      [GgmlType.Q8_0]: 0.01,
      [GgmlType.Q4_K]: 0.1,
      [GgmlType.Q5_K]: 0.06,
      [GgmlType.Q6_K]: 0.04,
      [GgmlType.IQ4_NL]: 0.12,
      [GgmlType.IQ4_XS]: 0.13,
    }[type];
    let worst = 0;
    for (let i = 0; i < values.length; i++) worst = Math.max(worst, Math.abs(back[i]! - values[i]!));
    expect(worst).toBeLessThan(bound);
  });
});

describe('rows of an 8B model (K = 4,096): block sums without a 0/1 matrix', () => {
  // The 0/1 matrix that sums blocks would be 2 MB here (25.7 MB at 14,336), read every token.
  it.each(['fp32', 'int8'] as const)(
    'Q4_K with %s activations: the graph sums the input, and the product is the reference',
    async (activations) => {
      const matrix = await expectReferenceProduct(GgmlType.Q4_K, 4096, activations, seededRandom(7));
      const g = new GraphBuilder('sums');
      new Weights(g, activations).linear(g.input('x', DataType.FLOAT, [S, matrix.k]), matrix, 'w');
      const graph = Buffer.from(g.model().toBuffer());
      expect([graph.includes('ReduceSum'), graph.includes('block_ones')]).toEqual([true, false]);
    },
  );
});

describe('a matrix larger than a part: applied in parts of its rows, joined', () => {
  // 100 rows of 512 in parts of 16 KB of weight, each starting on a page boundary.
  const [rows, k, partBytes] = [100, 512, 16384];
  const x = Float32Array.from({ length: S * k }, (_, i) => Math.sin(i));

  /** `matrix`·x through a graph with parts of `bytes` (weights outside the graph when `dir` is given), and that graph. */
  async function run(matrix: Matrix, activations: Activations, bytes: number, dir?: string, embedding?: ReturnType<typeof toEmbedding>) {
    const external = dir ? new ExternalWeights(dir, 'w.bin') : undefined;
    const g = new GraphBuilder('parts', external);
    const w = new Weights(g, activations, bytes);
    if (embedding) g.output(w.embed(g.input('ids', DataType.INT64, [1, 2]), embedding), DataType.FLOAT, [2, k]);
    const y = w.linear(g.input('x', DataType.FLOAT, [S, k]), matrix, 'w');
    g.output(y, DataType.FLOAT, [S, rows]);
    external?.close();
    if (dir) g.write(dir, 'w.onnx');
    const graph = Buffer.from(g.model().toBuffer());
    const options = { intraOpNumThreads: 1 };
    const session = dir ? await InferenceSession.create(join(dir, 'w.onnx'), options) : await InferenceSession.create(graph, options);
    try {
      const feeds: Record<string, Tensor> = { x: new Tensor('float32', x, [S, k]) };
      if (embedding) feeds.ids = new Tensor('int64', BigInt64Array.of(3n, 97n), [1, 2]);
      const out = await session.run(feeds);
      return {
        y: out[y]!.data as Float32Array,
        nodes: new Set(graph.toString('latin1').match(/MatMulNBits_\d+(?![\d.])/g)).size,
        concat: graph.includes('Concat'),
      };
    } finally {
      await session.release();
    }
  }

  // Q6_K with int8: 8-bit codes, 512 bytes a row, 4 parts; 4-bit codes (Q4_K; Q6_K's two terms
  // with fp32) are 256 bytes a row, 64 rows a part: 2 parts (of each term).
  it.each([
    ['Q6_K', 'int8', 1, 4, GgmlType.Q6_K],
    ['Q4_K', 'int8', 1, 2, GgmlType.Q4_K],
    ['Q6_K', 'fp32', 2, 4, GgmlType.Q6_K],
  ] as const)('%s with %s activations: %i node(s) as %i, bit for bit', async (_, activations, one, nodes, type) => {
    const matrix = toMatrix(type, [k, rows], randomBlocks(type, rows * k, seededRandom(type + 7), { min: 8, max: 18 }), activations);
    const [whole, parts] = [await run(matrix, activations, rows * k), await run(matrix, activations, partBytes)];
    expect([whole.nodes, whole.concat, parts.nodes, parts.concat]).toEqual([one, false, nodes, true]);
    const at = firstDifference(parts.y, whole.y);
    expect(at < 0 ? 'equal' : `output ${at}: ${parts.y[at]} against ${whole.y[at]}`).toBe('equal');
  });

  it('a tied head in parts reads the embedding table’s bytes: the weights file holds them once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parts-'));
    try {
      const embedding = toEmbedding(GgmlType.Q8_0, [k, rows], randomBlocks(GgmlType.Q8_0, rows * k, seededRandom(3), { min: 8, max: 18 }));
      if (embedding.kind !== 'blocks' || !embedding.shared) throw new Error('unreachable: Q8_0 is an 8-bit table a head shares');
      const whole = await run(embedding.shared, 'int8', rows * k);
      const parts = await run(embedding.shared, 'int8', partBytes, dir, embedding);
      const at = firstDifference(parts.y, whole.y);
      expect([parts.nodes, at < 0 ? 'equal' : `output ${at}`]).toEqual([2, 'equal']); // 64 rows: their 64-byte scales fill a page
      // The codes (512 a row) and scales (64 bytes a row) once, each from a page boundary.
      const stored = Math.ceil((rows * k) / 4096) * 4096 + rows * (k / 32) * 4;
      expect((await stat(join(dir, 'w.bin'))).size).toBe(stored);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('tensor types the packer does not read', () => {
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'types-'));
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  /** A GGUF whose one tensor says it is of `type` (written as Q4_0, its type field patched). */
  async function fileWithType(type: number, dims = [256, 2]): Promise<string> {
    const gguf = writeGguf({}, [{ name: 'blk.0.ffn_down.weight', dims, type: GgmlType.Q4_0, data: new Float32Array(512) }]);
    const name = gguf.indexOf('blk.0.ffn_down.weight');
    gguf.writeUInt32LE(type, name + 'blk.0.ffn_down.weight'.length + 4 + 8 * dims.length);
    const path = join(work, `type-${type}.gguf`);
    await writeFile(path, gguf);
    return path;
  }

  it.each([
    [11, 'Q3_K'],
    [10, 'Q2_K'],
    [16, 'IQ2_XXS'],
    [21, 'IQ3_S'],
    [35, 'TQ2_0'],
    [39, 'MXFP4'],
    [99, 'type 99'],
  ])('refuses ggml type %i, naming the tensor and %s', async (type, name) => {
    const path = await fileWithType(type);
    await expect(readGguf(path)).rejects.toThrow(
      `${path}: tensor blk.0.ffn_down.weight is ${name}, a type Meshwork does not read (it reads F32, F16, Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q4_K, Q5_K, Q6_K, IQ4_NL, IQ4_XS, BF16)`,
    );
  });

  it('refuses rows that do not fill whole blocks of their type', async () => {
    const gguf = writeGguf({}, [{ name: 'w', dims: [32, 8], type: GgmlType.Q8_0, data: new Float32Array(256) }]);
    gguf.writeUInt32LE(GgmlType.Q4_K, gguf.indexOf('w') + 1 + 4 + 16); // 256 elements, rows of 32
    const path = join(work, 'rows.gguf');
    await writeFile(path, gguf);
    await expect(readGguf(path)).rejects.toThrow("tensor w's rows of 32 do not fill whole Q4_K blocks of 256");
  });

  it("the test kit's quantisers refuse what they do not write", () => {
    expect(() => quantizeMore(GgmlType.Q8_0, new Float32Array(32))).toThrow("quantizeMore does not write Q8_0: tiny-gguf's quantize does");
  });
});
