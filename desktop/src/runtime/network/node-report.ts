import { freemem } from 'node:os';
import type { LanNodeReport } from '@meshwork/contracts';
import type { Host } from '../host';

/**
 * This device's speed, measured once: multiply-adds over a block-sized float32 matrix (the
 * shape of a decode step's work), as millions per second of this process's CPU time, the best
 * of five runs. CPU time rather than the clock's: a machine busy with something else for a
 * moment is not a slower machine, and the blocks are planned for as long as the network runs.
 */
let measured: number | null = null;
export function measuredSpeed(): number {
  if (measured !== null) return measured;
  const rows = 256;
  const columns = 576;
  const matrix = new Float32Array(rows * columns).map((_, i) => ((i * 7919) % 1000) / 1000);
  const vector = new Float32Array(columns).map((_, i) => (i % 13) / 13);
  const out = new Float32Array(rows);
  const repeats = 40;
  let best = 0;
  for (let run = 0; run < 5; run++) {
    const started = process.cpuUsage();
    for (let repeat = 0; repeat < repeats; repeat++) {
      for (let r = 0; r < rows; r++) {
        let sum = 0;
        for (let c = 0; c < columns; c++) sum += matrix[r * columns + c]! * vector[c]!;
        out[r] = sum;
      }
    }
    const used = process.cpuUsage(started);
    best = Math.max(best, (repeats * rows * columns) / Math.max(1, used.user + used.system));
  }
  measured = Math.round(best);
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
