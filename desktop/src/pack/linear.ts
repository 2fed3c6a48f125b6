/**
 * The graph pieces that apply a weight matrix (see matrices.ts for the forms) and look up the
 * token embedding, written into a GraphBuilder.
 */
import { DataType, type GraphBuilder } from './onnx/graph';
import { rowRange, type Activations, type Matrix } from './matrices';

/**
 * The token embedding: one value per byte, `(byte - offset)·scale (+ min)` per block, or floats,
 * or (a tied head in the same block) the head's own 4-bit terms, looked up and unpacked per token
 * so the package holds the table once.
 */
export type Embedding =
  | { kind: 'head'; matrix: Extract<Matrix, { kind: 'q4' }> }
  | {
      kind: 'blocks';
      vocab: number;
      hidden: number;
      /** Elements that share a scale: 16 or 32. */
      block: number;
      bytes: Uint8Array;
      offset: number;
      scales: Float32Array;
      mins?: Float32Array;
      /** The same bytes as an 8-bit matrix, for a tied output head. */
      shared?: Matrix;
    }
  | { kind: 'float'; vocab: number; hidden: number; rows: Float32Array };

/**
 * Above this a block-sum 0/1 matrix stays out of the cache and costs a weight's memory traffic
 * each token; below it (the small models') the single MatMul is cheaper than two nodes.
 */
const ONES_BYTES = 1 << 20;
const NIBBLE_MASK = Uint8Array.of(0x0f);
const NIBBLE_SHIFT = Uint8Array.of(4);
const EIGHT = Float32Array.of(8);

/**
 * The most bytes of one weight a node takes. onnxruntime holds a weight's mapped pages and its
 * prepacked copy at once while a block loads, so a load peaks above what the block keeps by its
 * largest weight: an 8B model's 525 MB output head put 0.6 GB on its device's peak (issue 34).
 * A larger matrix is applied in parts of its rows, joined: exact, each output is its own row's.
 */
const PART_BYTES = 64 << 20;
/** A part of a table (a head sharing the embedding's bytes) is mapped where it starts: on a page. */
const PAGE = 4096;

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** Rows a part of `matrix` holds: every row when it is small enough, else at most `partBytes` of weight. */
function partRows(matrix: Exclude<Matrix, { kind: 'float' }>, partBytes: number): number {
  const { n, k, block } = matrix;
  const weightRow = matrix.kind === 'q8' ? k : k / 2;
  if (n * weightRow <= partBytes) return n;
  // The fewest rows whose weights and scales both end on a page boundary.
  const step = [weightRow, (k / block) * 4].reduce((rows, bytes) => {
    const needed = PAGE / gcd(bytes, PAGE);
    return (rows * needed) / gcd(rows, needed);
  }, 1);
  return Math.max(step, Math.floor(partBytes / weightRow / step) * step);
}

function transpose(values: Float32Array, rows: number, columns: number): Float32Array {
  const out = new Float32Array(values.length);
  for (let r = 0; r < rows; r++) for (let c = 0; c < columns; c++) out[c * rows + r] = values[r * columns + c]!;
  return out;
}

/** Weights and graph values are named once per builder; the same array is stored only once. */
export class Weights {
  // Weak, so a weight written out is freed once the graph code lets go of it.
  private readonly stored = new WeakMap<object, string>();
  private readonly blockSums = new Map<string, string>();
  private readonly blockOnes = new Map<string, string>();
  private readonly zeros = new Map<string, string>();
  /** A matrix's mins as the graph stores them ([blocks, n]), made once for the head and a lookup that shares them. */
  private readonly transposedMins = new WeakMap<Float32Array, Float32Array>();
  /** Tables (see `table`) by the memory they view, so the whole of one or a part of it (a view of its rows) is found. */
  private readonly tables = new WeakMap<ArrayBufferLike, { data: Uint8Array | Float32Array; name: string }[]>();
  private readonly secondNames = new Map<string, string>();
  private count = 0;

  /** `partBytes`: the most bytes of weight one node takes (PART_BYTES; a test's own to see parts on small matrices). */
  constructor(
    private readonly g: GraphBuilder,
    private readonly activations: Activations,
    private readonly partBytes = PART_BYTES,
  ) {}

  constant(name: string, dataType: DataType, dims: readonly number[], data: Uint8Array | Float32Array | BigInt64Array): string {
    const known = this.stored.get(data);
    if (known) return this.isTable(data) ? this.secondName(known) : known;
    const unique = `${name}.${this.count++}`;
    const part = this.partOfTable(unique, dataType, dims, data);
    if (part) return part;
    this.g.initializer(unique, { dataType, dims, data });
    this.stored.set(data, unique);
    return unique;
  }

  /** `data` as a range of a stored table's bytes when it lies in one (a tied head's part), so the file holds them once. */
  private partOfTable(
    name: string,
    dataType: DataType,
    dims: readonly number[],
    data: Uint8Array | Float32Array | BigInt64Array,
  ): string | undefined {
    for (const table of this.tables.get(data.buffer) ?? []) {
      const at = data.byteOffset - table.data.byteOffset;
      if (at < 0 || at + data.byteLength > table.data.byteLength) continue;
      return this.g.alias(name, table.name, { at, length: data.byteLength, dataType, dims });
    }
    return undefined;
  }

  /**
   * `constant` for a table Gather reads (an embedding). A kernel that later takes the same data
   * (a tied head's MatMulNBits) gets a second name over the same stored bytes: onnxruntime maps
   * each external initializer on its own and unmaps one once its kernel has prepacked it, so the
   * head's mapping goes after loading and the table's keeps only the rows looked up resident.
   */
  table(name: string, dataType: DataType, dims: readonly number[], data: Uint8Array | Float32Array): string {
    const stored = this.constant(name, dataType, dims, data);
    this.tables.set(data.buffer, [...(this.tables.get(data.buffer) ?? []), { data, name: stored }]);
    return stored;
  }

  /** Whether `data` is a table's whole array (see `table`). */
  private isTable(data: Uint8Array | Float32Array | BigInt64Array): boolean {
    return this.tables.get(data.buffer)?.some((table) => table.data === data) ?? false;
  }

  private secondName(name: string): string {
    let second = this.secondNames.get(name);
    if (!second) {
      second = this.g.alias(`${name}.packed`, name) ?? name;
      this.secondNames.set(name, second);
    }
    return second;
  }

  int64s(values: readonly number[]): string {
    return this.constant('shape', DataType.INT64, [values.length], BigInt64Array.from(values.map(BigInt)));
  }

  /** x·Wᵀ for x of shape [S, k]: answers [S, n]. Blocks run 2-D inside, so Gemm can add corrections. */
  linear(input: string, matrix: Matrix, name: string): string {
    const { n, k } = matrix;
    if (matrix.kind === 'float') {
      return this.g.op('MatMul', [input, this.constant(name, DataType.FLOAT, [k, n], transpose(matrix.rows, n, k))]);
    }
    const rows = partRows(matrix, this.partBytes);
    const output =
      rows >= n
        ? this.product(input, matrix, name)
        : this.g.op(
            'Concat',
            Array.from({ length: Math.ceil(n / rows) }, (_, i) =>
              this.product(input, rowRange(matrix, i * rows, Math.min(rows, n - i * rows)), `${name}.rows${i}`),
            ),
            { axis: { i: -1 } },
          );
    if (!matrix.mins) return output;
    const mins = this.constant(`${name}.mins`, DataType.FLOAT, [matrix.k / matrix.block, n], this.minsOf(matrix));
    // Gemm adds the correction to the product in the same node: blockSums·mins + output.
    return this.g.op('Gemm', [this.blockSumsOf(input, k, matrix.block), mins, output]);
  }

  /** x·Wᵀ of a quantised matrix without its mins: one MatMulNBits node, or one per 4-bit term, summed. */
  private product(input: string, matrix: Exclude<Matrix, { kind: 'float' }>, name: string): string {
    const { n, k, block } = matrix;
    const blocks = k / block;
    const nbits = (bits: number, B: string, scales: string, zeroPoints = '') =>
      this.g.op(
        'MatMulNBits',
        [input, B, scales, zeroPoints],
        {
          K: { i: k },
          N: { i: n },
          bits: { i: bits },
          block_size: { i: block },
          accuracy_level: { i: this.activations === 'int8' ? 4 : 0 },
        },
        'microsoft',
      );
    if (matrix.kind === 'q4') return this.nibbleTerms(input, matrix, name, nbits);
    const B = this.constant(name, DataType.UINT8, [n, blocks, block], matrix.bytes);
    return nbits(8, B, this.constant(`${name}.scales`, DataType.FLOAT, [n, blocks], matrix.scales));
  }

  /** A matrix's mins as the graph stores them, [blocks, n]. */
  private minsOf(matrix: Exclude<Matrix, { kind: 'float' }>): Float32Array {
    let data = this.transposedMins.get(matrix.mins!);
    if (!data) {
      data = transpose(matrix.mins!, matrix.n, matrix.k / matrix.block);
      this.transposedMins.set(matrix.mins!, data);
    }
    return data;
  }

  /** The sum of a 4-bit matrix's terms, each one MatMulNBits node. */
  private nibbleTerms(
    input: string,
    matrix: Extract<Matrix, { kind: 'q4' }>,
    name: string,
    nbits: (bits: number, B: string, scales: string, zeroPoints?: string) => string,
  ): string {
    const { n, block } = matrix;
    const blocks = matrix.k / block;
    let output = '';
    for (const [t, term] of matrix.terms.entries()) {
      const B = this.constant(`${name}.${t}`, DataType.UINT8, [n, blocks, block / 2], term.packed);
      // Without a zero-point input MatMulNBits takes 8, the fast path; 0 is a packed input of zeros.
      const zeroPoints = term.zeroPoint === 0 ? this.zeroNibbles(n, blocks) : '';
      const product = nbits(4, B, this.constant(`${name}.${t}.scales`, DataType.FLOAT, [n, blocks], term.scales), zeroPoints);
      output = output ? this.g.op('Add', [output, product]) : product;
    }
    return output;
  }

  /** Packed 4-bit zero points of 0 for an [n, blocks] matrix, one constant per shape. */
  private zeroNibbles(n: number, blocks: number): string {
    const key = `${n}/${blocks}`;
    let name = this.zeros.get(key);
    if (!name) {
      const length = n * Math.ceil(blocks / 2);
      name = this.constant('zero_points', DataType.UINT8, [length], new Uint8Array(length));
      this.zeros.set(key, name);
    }
    return name;
  }

  /** The token embedding of `ids` [1, S]: answers [S, hidden]. */
  embed(ids: string, embedding: Embedding): string {
    if (embedding.kind === 'head') return this.embedFromHead(ids, embedding.matrix);
    if (embedding.kind === 'float') {
      const rows = this.g.op('Gather', [this.table('embedding', DataType.FLOAT, [embedding.vocab, embedding.hidden], embedding.rows), ids]);
      return this.g.op('Reshape', [rows, this.int64s([-1, embedding.hidden])]);
    }
    const { vocab, hidden, block } = embedding;
    const blocks = hidden / block;
    const bytes = this.g.op('Gather', [this.table('embedding', DataType.UINT8, [vocab, blocks, block], embedding.bytes), ids]);
    let values = this.g.op('Cast', [bytes], { to: { i: DataType.FLOAT } });
    if (embedding.offset)
      values = this.g.op('Sub', [values, this.constant('offset', DataType.FLOAT, [], Float32Array.of(embedding.offset))]);
    const perBlock = (data: Float32Array, name: string) =>
      this.g.op('Unsqueeze', [this.g.op('Gather', [this.table(name, DataType.FLOAT, [vocab, blocks], data), ids]), this.int64s([-1])]);
    values = this.g.op('Mul', [values, perBlock(embedding.scales, 'embedding.scales')]);
    if (embedding.mins) values = this.g.op('Add', [values, perBlock(embedding.mins, 'embedding.mins')]);
    return this.g.op('Reshape', [values, this.int64s([-1, hidden])]);
  }

  /**
   * Rows of a tied head's 4-bit matrix as embeddings: each term's nibbles (element 2i low, 2i+1
   * high) less its zero point, times its block scale, summed, plus the block's min. The tables are
   * the head's own arrays, so their bytes are stored once (see `table`). Exact: the same products
   * the head's MatMulNBits dequantises to.
   */
  private embedFromHead(ids: string, matrix: Extract<Matrix, { kind: 'q4' }>): string {
    const { n, k, block } = matrix;
    const blocks = k / block;
    const g = this.g;
    const perBlock = (data: string) => g.op('Unsqueeze', [data, this.int64s([-1])]);
    let values = '';
    for (const [t, term] of matrix.terms.entries()) {
      const packed = g.op('Gather', [this.table(`output.${t}`, DataType.UINT8, [n, blocks, block / 2], term.packed), ids]);
      const low = g.op('BitwiseAnd', [packed, this.constant('nibble_mask', DataType.UINT8, [], NIBBLE_MASK)]);
      const high = g.op('BitShift', [packed, this.constant('nibble_shift', DataType.UINT8, [], NIBBLE_SHIFT)], {
        direction: { s: 'RIGHT' },
      });
      const codes = g.op('Reshape', [
        g.op('Concat', [perBlock(low), perBlock(high)], { axis: { i: -1 } }),
        this.int64s([-1, blocks, block]),
      ]);
      let part = g.op('Cast', [codes], { to: { i: DataType.FLOAT } });
      if (term.zeroPoint) part = g.op('Sub', [part, this.constant('nibble_zero_point', DataType.FLOAT, [], EIGHT)]);
      const scales = g.op('Gather', [this.table(`output.${t}.scales`, DataType.FLOAT, [n, blocks], term.scales), ids]);
      part = g.op('Mul', [part, perBlock(g.op('Reshape', [scales, this.int64s([-1, blocks])]))]);
      values = values ? g.op('Add', [values, part]) : part;
    }
    if (matrix.mins) {
      // [blocks, n] gathered on n: [blocks, 1, S], to [S, blocks].
      const table = this.table('output.mins', DataType.FLOAT, [blocks, n], this.minsOf(matrix));
      const mins = g.op('Gather', [table, ids], { axis: { i: 1 } });
      values = g.op('Add', [
        values,
        perBlock(g.op('Reshape', [g.op('Transpose', [mins], { perm: { ints: [1, 2, 0] } }), this.int64s([-1, blocks])])),
      ]);
    }
    return g.op('Reshape', [values, this.int64s([-1, k])]);
  }

  /** Sums of each block of the input, [S, k/block]: the mins' factor. */
  private blockSumsOf(input: string, k: number, block: number): string {
    const known = this.blockSums.get(`${input}/${block}`);
    if (known) return known;
    let sums: string;
    if (k * (k / block) * 4 > ONES_BYTES) {
      // A large 0/1 matrix is read from memory on every token like a weight (25.7 MB for an 8B
      // model's down projection): summing the input's blocks reads only the input.
      const blocks = this.g.op('Reshape', [input, this.int64s([-1, k / block, block])]);
      sums = this.g.op('ReduceSum', [blocks, this.int64s([-1])], { keepdims: { i: 0 } });
    } else {
      // One MatMul with a small 0/1 matrix that sums each block: one node instead of two.
      let ones = this.blockOnes.get(`${k}/${block}`);
      if (!ones) {
        const data = new Float32Array(k * (k / block));
        for (let i = 0; i < k; i++) data[i * (k / block) + Math.floor(i / block)] = 1;
        ones = this.constant('block_ones', DataType.FLOAT, [k, k / block], data);
        this.blockOnes.set(`${k}/${block}`, ones);
      }
      sums = this.g.op('MatMul', [input, ones]);
    }
    this.blockSums.set(`${input}/${block}`, sums);
    return sums;
  }
}
