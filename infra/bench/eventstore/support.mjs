// Shared helpers for the event store benchmark: the event every workload writes, timing,
// percentiles, CPU and PostgreSQL counters. No workload logic here.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';

export const EVENT_TYPE = 'OrderPlaced';

/**
 * A realistic event: ~300 bytes of JSON data (an order with two lines and an address) and the
 * full Meshwork metadata (correlation, causation, actor with ip and user agent, ~200 bytes).
 * Built fresh for every append in every system (new ids, new Date), so the Node-side cost of
 * producing events is the same for ours, the raw baseline and the peer.
 */
export function makeEvent(seq) {
  return {
    eventId: randomUUID(),
    type: EVENT_TYPE,
    schemaVersion: 1,
    occurredAt: new Date(),
    data: {
      orderId: randomUUID(),
      customerId: `customer-${seq % 50_000}`,
      lines: [
        { sku: 'MW-GPU-24G', quantity: 1, unitPrice: 159_900 },
        { sku: 'MW-PRO-12M', quantity: 3, unitPrice: 4_900 },
      ],
      currency: 'EUR',
      total: 174_600,
      address: { line1: '12 rue de la Paix', city: 'Paris', postcode: '75002', country: 'FR' },
    },
    metadata: {
      correlationId: randomUUID(),
      causationId: randomUUID(),
      actor: {
        userId: `user-${seq % 10_000}`,
        isStaff: false,
        ip: '203.0.113.42',
        userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0',
      },
    },
  };
}

export function makeEvents(count, seq) {
  return Array.from({ length: count }, (_, i) => makeEvent(seq + i));
}

export const now = () => performance.now();
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Percentile (0..100) of an unsorted array of numbers, nearest-rank. */
export function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

// ---------------------------------------------------------------------------------------
// CPU split: this Node process vs all `postgres` processes vs the whole machine, so each
// line can say where the time went (2 cores = 200 % at most).

const TICK = 100; // USER_HZ; 100 on every Linux we run on

function postgresCpuTicks() {
  const out = new Map();
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      if (stat.slice(stat.indexOf('(') + 1, close) !== 'postgres') continue;
      const f = stat.slice(close + 2).split(' ');
      out.set(pid, Number(f[11]) + Number(f[12])); // utime + stime
    } catch {
      // the process ended while we looked
    }
  }
  return out;
}

function machineTicks() {
  const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  return { total, idle: f[3] + f[4] }; // idle + iowait
}

export function cpuSnapshot() {
  const u = process.cpuUsage();
  return { t: now(), node: (u.user + u.system) / 1000, pg: postgresCpuTicks(), machine: machineTicks() };
}

/**
 * CPU use between two snapshots, in % of one core: this Node process, all postgres processes,
 * and everything else on the machine (other sessions' work, kernel threads, softirq). `idle`
 * is in % of the whole machine. A high `other` means a neighbour took CPU from the line.
 */
export function cpuDelta(a, b) {
  const wallMs = b.t - a.t;
  let pgTicks = 0;
  for (const [pid, ticks] of b.pg) pgTicks += ticks - (a.pg.get(pid) ?? 0);
  const machine = b.machine.total - a.machine.total;
  const cores = os.cpus().length;
  const nodePct = Math.round(((b.node - a.node) / wallMs) * 100);
  const pgPct = Math.round(((pgTicks * (1000 / TICK)) / wallMs) * 100);
  const idlePct = machine > 0 ? Math.round(((b.machine.idle - a.machine.idle) / machine) * 100) : NaN;
  const busyPct = ((100 - idlePct) / 100) * cores * 100;
  return { nodePct, pgPct, idlePct, otherPct: Math.max(0, Math.round(busyPct - nodePct - pgPct)) };
}

/** CPU time (node + postgres) spent per event, in µs: robust to neighbours stealing CPU. */
export function cpuMicrosPerEvent(cpu, eventsPerSecond) {
  return ((cpu.nodePct + cpu.pgPct) / 100) * (1e6 / eventsPerSecond);
}

// ---------------------------------------------------------------------------------------
// PostgreSQL counters for the benchmark database: commits, WAL bytes, WAL fsyncs. Backends
// publish their statistics at most once a second, so the closing snapshot waits a moment.

export async function pgCounters(pool) {
  const { rows } = await pool.query(`
    SELECT (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()) AS commits,
           (SELECT wal_bytes FROM pg_stat_wal) AS wal_bytes,
           (SELECT coalesce(sum(fsyncs), 0) FROM pg_stat_io WHERE object = 'wal') AS wal_fsyncs`);
  const r = rows[0];
  return { commits: Number(r.commits), walBytes: Number(r.wal_bytes), walFsyncs: Number(r.wal_fsyncs) };
}

export function counterDelta(a, b) {
  return { commits: b.commits - a.commits, walBytes: b.walBytes - a.walBytes, walFsyncs: b.walFsyncs - a.walFsyncs };
}

/**
 * Opens a measurement window. `mark()` ends it for CPU (call it when the timed part ends);
 * `close()` (after the workload stopped) returns the CPU split and database counters over it.
 */
export async function measureWindow(pool) {
  const counters = await pgCounters(pool);
  const cpu = cpuSnapshot();
  let cpuEnd = null;
  return {
    mark() {
      cpuEnd = cpuSnapshot();
    },
    async close() {
      cpuEnd ??= cpuSnapshot();
      await sleep(1_100); // let the backends flush their stats
      const countersEnd = await pgCounters(pool);
      return { cpu: cpuDelta(cpu, cpuEnd), db: counterDelta(counters, countersEnd) };
    },
  };
}
