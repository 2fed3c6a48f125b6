// Shared by the benchmark's processes.
import { readFileSync } from 'node:fs';

/** Measured runs after one warm-up; the figures are their medians. */
export const RUNS = 3;

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** VmHWM: the most resident memory this process has held. */
export function peakRssBytes() {
  const line = readFileSync('/proc/self/status', 'utf8').match(/^VmHWM:\s+(\d+) kB/m);
  return line ? Number(line[1]) * 1024 : NaN;
}
