// Shared by the benchmark's processes.
import { readFileSync } from 'node:fs';

/** Measured runs after one warm-up (3 unless BENCH_RUNS says); the figures are their medians. */
export const RUNS = Number(process.env.BENCH_RUNS ?? 3);

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function status(field) {
  const line = readFileSync('/proc/self/status', 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
  return line ? Number(line[1]) * 1024 : NaN;
}

/** VmHWM: the most resident memory this process has held. */
export const peakRssBytes = () => status('VmHWM');

/** VmRSS now: before loading, the runtime's own share (Node, the engine's library). */
export const rssBytes = () => status('VmRSS');

/** Prints the process's one JSON line: load time, median token rates, peak and starting RSS. */
export function report({ loadMs, prefill, decode, baseRssBytes, ...extra }) {
  const result = {
    ...extra,
    loadMs,
    prefillTokensPerSecond: median(prefill),
    decodeTokensPerSecond: median(decode),
    peakRssBytes: peakRssBytes(),
    baseRssBytes,
  };
  console.log(JSON.stringify(result));
}
