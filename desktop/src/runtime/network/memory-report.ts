/**
 * What serving its share costs this device in memory, measured (the share report's `memory`):
 * the process's resident memory now and at its highest, the held blocks' weights, and the fixed
 * part beside them (the runtime before any block loaded, and the key/value caches held now).
 * The claim a device makes: peak ≤ 1.2 × weights + fixed.
 */
import { readFileSync } from 'node:fs';
import type { LanShareReport } from '@meshwork/contracts';
import { BlockWorker } from './block-worker';

export function memoryReport(worker: BlockWorker | null): LanShareReport['memory'] {
  const rss = process.memoryUsage.rss();
  return {
    rss_bytes: rss,
    peak_rss_bytes: Math.max(rss, peakRssBytes()),
    weights_bytes: worker?.weightsBytes ?? 0,
    // Before any block loads, the runtime is what the process holds now.
    fixed_bytes: (BlockWorker.runtimeBytes ?? rss) + (worker?.cacheBytes ?? 0),
  };
}

/** The process's highest resident memory: Linux's VmHWM, elsewhere what Node's resource usage says (both in KiB). */
export function peakRssBytes(): number {
  try {
    const match = /^VmHWM:\s*(\d+)\s*kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match) return Number(match[1]) * 1024;
  } catch {
    // Not Linux: fall through.
  }
  return process.resourceUsage().maxRSS * 1024;
}
