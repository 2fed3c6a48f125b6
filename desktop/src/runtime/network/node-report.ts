import { freemem } from 'node:os';
import type { LanNodeReport } from '@meshwork/contracts';
import type { Host } from '../host';

/**
 * This device's speed, measured once: multiply-adds over a block-sized float32 matrix for
 * about 50 ms (the shape of a decode step's work), as millions of multiply-adds per second.
 */
let measured: number | null = null;
export function measuredSpeed(): number {
  if (measured !== null) return measured;
  const rows = 256;
  const columns = 576;
  const matrix = new Float32Array(rows * columns).map((_, i) => ((i * 7919) % 1000) / 1000);
  const vector = new Float32Array(columns).map((_, i) => (i % 13) / 13);
  const out = new Float32Array(rows);
  let done = 0;
  const started = performance.now();
  while (performance.now() - started < 50) {
    for (let r = 0; r < rows; r++) {
      let sum = 0;
      for (let c = 0; c < columns; c++) sum += matrix[r * columns + c]! * vector[c]!;
      out[r] = sum;
    }
    done += rows * columns;
  }
  measured = Math.round(done / ((performance.now() - started) * 1000));
  return measured;
}

/** What this device tells its host: free memory, speed, and the models it has installed and may run. */
export function nodeReport(host: Host): LanNodeReport {
  const state = host.state();
  const models = state.serving.allowed
    ? state.models.filter((m) => m.allowed && m.status === 'installed').map(({ name, version }) => ({ name, version }))
    : [];
  return { free_memory_bytes: freemem(), speed: measuredSpeed(), models };
}
