/**
 * One block's key/value cache: per layer a key and a value buffer [1, kvHeads, capacity,
 * headDim] that onnxruntime reads as `past_*` (wrapping this memory, no copy), and to which
 * each run's new positions (`new_*`) are appended here. The buffers grow by a quarter at a
 * time, up to the context length.
 */
import { Tensor } from 'onnxruntime-node';

export interface KvShape {
  layers: number[];
  kvHeads: number;
  headDim: number;
  contextLength: number;
}

const INITIAL_CAPACITY = 256;

export class KvCache {
  /** Positions the cache holds. */
  length = 0;
  private capacity = 0;
  private keys = new Map<number, Tensor>();
  private values = new Map<number, Tensor>();

  constructor(private readonly shape: KvShape) {}

  /** Makes room for `tokens` more positions, keeping what is cached. */
  reserve(tokens: number): void {
    const needed = this.length + tokens;
    if (needed <= this.capacity) return;
    // Grow by a quarter: copies stay rare, and spare room would be memory held for nothing.
    const capacity = Math.min(this.shape.contextLength, Math.max(needed, Math.ceil(this.capacity * 1.25), INITIAL_CAPACITY));
    for (const layer of this.shape.layers) {
      this.keys.set(layer, this.grown(this.keys.get(layer), capacity));
      this.values.set(layer, this.grown(this.values.get(layer), capacity));
    }
    this.capacity = capacity;
  }

  key(layer: number): Tensor {
    return this.keys.get(layer)!;
  }

  value(layer: number): Tensor {
    return this.values.get(layer)!;
  }

  /**
   * Writes the `tokens` new positions of a layer ([1, kvHeads, tokens, headDim]) after what the
   * cache holds; `length` moves on once every layer has been appended (see BlockRunner).
   */
  append(layer: number, key: Float32Array, value: Float32Array, tokens: number): void {
    const { kvHeads, headDim } = this.shape;
    for (const [target, source] of [
      [this.key(layer).data as Float32Array, key],
      [this.value(layer).data as Float32Array, value],
    ] as const) {
      for (let head = 0; head < kvHeads; head++) {
        const rows = source.subarray(head * tokens * headDim, (head + 1) * tokens * headDim);
        target.set(rows, (head * this.capacity + this.length) * headDim);
      }
    }
  }

  /** Forgets positions from `length` on (a new conversation, or a shorter shared prefix). */
  truncate(length: number): void {
    this.length = Math.min(this.length, Math.max(0, length));
  }

  /** Bytes the buffers hold now. */
  get bytes(): number {
    return 2 * this.shape.layers.length * this.shape.kvHeads * this.capacity * this.shape.headDim * 4;
  }

  private grown(old: Tensor | undefined, capacity: number): Tensor {
    const { kvHeads, headDim } = this.shape;
    const data = new Float32Array(kvHeads * capacity * headDim);
    if (old) {
      const source = old.data as Float32Array;
      for (let head = 0; head < kvHeads; head++) {
        const rows = source.subarray(head * this.capacity * headDim, (head * this.capacity + this.length) * headDim);
        data.set(rows, head * capacity * headDim);
      }
    }
    return new Tensor('float32', data, [1, kvHeads, capacity, headDim]);
  }
}
