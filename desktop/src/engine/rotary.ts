/**
 * Rotary position tables, made by the host rather than stored in the package. GroupQueryAttention
 * reads `cos_cache`/`sin_cache` [positions, headDim/2] by absolute position; packages of format 1
 * stored them as constants for the whole context (67 MB per block on Gemma 3's 32,768
 * positions). Packages of format 2 take them as graph inputs (`BlockIo.rotaryCos(i)`), and the
 * host makes them from the manifest's `rotary` list, only as far as the cache reaches, growing
 * with it: a few hundred KB for a conversation of a thousand tokens.
 */
import { Tensor } from 'onnxruntime-node';
import type { ModelPackageManifest } from '@meshwork/contracts';

export interface RopeParameters {
  base: number;
  scale: number;
  /** Divisors of the frequencies, [headDim/2] (Llama 3.1's `rope_freqs`). */
  factors?: ArrayLike<number>;
}

/**
 * Rows [from, to) of the tables into `cos`/`sin` ([rows, headDim/2]): angle
 * `scale·position·base^(-2i/headDim) / factor[i]`, as ggml's rope computes it.
 */
function fillRows(cos: Float32Array, sin: Float32Array, from: number, to: number, headDim: number, rope: RopeParameters): void {
  const half = headDim / 2;
  for (let i = 0; i < half; i++) {
    const frequency = (rope.scale * Math.pow(rope.base, (-2 * i) / headDim)) / (rope.factors?.[i] ?? 1);
    for (let position = from; position < to; position++) {
      cos[position * half + i] = Math.cos(position * frequency);
      sin[position * half + i] = Math.sin(position * frequency);
    }
  }
}

/** The tables for positions [0, positions), [positions, headDim/2] each. */
export function rotaryTables(positions: number, headDim: number, rope: RopeParameters): { cos: Float32Array; sin: Float32Array } {
  const cos = new Float32Array(positions * (headDim / 2));
  const sin = new Float32Array(positions * (headDim / 2));
  fillRows(cos, sin, 0, positions, headDim, rope);
  return { cos, sin };
}

/** One table pair, grown by a quarter when a run reaches past it (as the key/value cache grows). */
class Table {
  private cos = new Float32Array();
  private sin = new Float32Array();
  private rows = 0;

  constructor(
    private readonly headDim: number,
    private readonly contextLength: number,
    private readonly rope: RopeParameters,
  ) {}

  /** Tensors covering at least `positions` rows (views of the table, not copies). */
  covering(positions: number): [Tensor, Tensor] {
    const half = this.headDim / 2;
    if (positions > this.rows) {
      const rows = Math.min(this.contextLength, Math.max(positions, Math.ceil(this.rows * 1.25), 256));
      const cos = new Float32Array(rows * half);
      const sin = new Float32Array(rows * half);
      cos.set(this.cos);
      sin.set(this.sin);
      fillRows(cos, sin, this.rows, rows, this.headDim, this.rope);
      [this.cos, this.sin, this.rows] = [cos, sin, rows];
    }
    return [new Tensor('float32', this.cos, [this.rows, half]), new Tensor('float32', this.sin, [this.rows, half])];
  }
}

/** The manifest's rotary tables, shared by every block of a model in this process. */
export class RotaryTables {
  private readonly tables: Table[];

  constructor(manifest: ModelPackageManifest) {
    const factors = manifest.ropeFactors;
    this.tables = (manifest.rotary ?? []).map(
      (rope) => new Table(manifest.headDim, manifest.contextLength, { base: rope.base, scale: rope.scale, factors }),
    );
  }

  /** Table `index`'s cos and sin for at least `positions` positions. */
  covering(index: number, positions: number): [Tensor, Tensor] {
    const table = this.tables[index];
    if (!table) throw new Error(`The package's graph reads rotary table ${index}, which model.json does not describe: repack the model`);
    return table.covering(positions);
  }
}
