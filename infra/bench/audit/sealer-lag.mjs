// Sealer lag: the event store benchmark's 16-writer single-append load (one event per append,
// own stream, expected version checked, each writer waiting for its append), first alone for
// the baseline append rate, then with the real LogSealer following in its own process.
// Lag is sampled every 50 ms: positions appended but not yet chained, and the age of the
// oldest of them (from the moment its append returned to the writer).
import { fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { makeEvent, percentile, sleep } from '../eventstore/support.mjs';
import { dist } from './fill.mjs';

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'sealer-child.mjs');

/** 16 writers for `seconds` (after `warmup`); `onAppended(position, t)` per event; resolves with the rate. */
async function write(store, { writers, seconds, warmup, onAppended = () => undefined, tag }) {
  let stopping = false;
  let measuring = false;
  let events = 0;
  const loops = Array.from({ length: writers }, async (_, w) => {
    let version = 0;
    for (let seq = w * 10_000_000; !stopping; seq++) {
      const r = await store.append(`sealbench-${tag}${w}`, [makeEvent(seq)], version);
      version = r.nextExpectedVersion;
      const t = performance.now();
      for (const p of r.positions) onAppended(p, t);
      if (measuring) events += 1;
    }
  });
  await sleep(warmup * 1000);
  measuring = true;
  const t0 = performance.now();
  await sleep(seconds * 1000);
  measuring = false;
  const elapsed = (performance.now() - t0) / 1000;
  stopping = true;
  await Promise.all(loops);
  return events / elapsed;
}

const chainedTo = async (pool) =>
  Number((await pool.query("SELECT position FROM projection_checkpoints WHERE name = 'log_sealer'")).rows[0]?.position ?? 0);

export async function sealerLag(url, dataEncryptionKey, { writers = 16, seconds = 20, baselineSeconds = 10, warmup = 1, poolSize = 20 }) {
  const { PostgresEventStore } = dist('api/src/platform/event-store/postgres-event-store.js');
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  pool.on('error', () => undefined);
  const store = new PostgresEventStore(pool);
  const tag = `${process.pid}-`;
  let child;
  try {
    const alone = await write(store, { writers, seconds: baselineSeconds, warmup, tag: `${tag}a` });

    const chainedBefore = await chainedTo(pool);
    child = fork(CHILD, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    await new Promise((resolve, reject) => {
      child.once('message', resolve);
      child.once('exit', (code) => reject(new Error(`sealer exited ${code}`)));
      child.send({ url, key: dataEncryptionKey.toString('base64') });
    });
    // Let it chain the baseline's events first: the line starts with the sealer at the head.
    const head0 = await store.headPosition();
    const caughtUpFrom = performance.now();
    while ((await chainedTo(pool)) < head0) await sleep(50);
    const catchUpSeconds = (performance.now() - caughtUpFrom) / 1000;

    const unsealed = new Map(); // position -> when its append returned
    let head = head0;
    const samples = [];
    let sampling = true;
    let measuringFrom = Infinity;
    const sampler = (async () => {
      while (sampling) {
        await sleep(50);
        const chained = await chainedTo(pool);
        const t = performance.now();
        let oldest = t;
        for (const [p, at] of unsealed) {
          if (p <= chained) unsealed.delete(p);
          else if (at < oldest) oldest = at;
        }
        if (t >= measuringFrom) samples.push({ t, positions: Math.max(0, head - chained), ms: t - oldest, chained });
      }
    })();
    const tStart = performance.now();
    measuringFrom = tStart + warmup * 1000;
    const withSealer = await write(store, {
      writers,
      seconds,
      warmup,
      tag: `${tag}b`,
      onAppended: (p, t) => {
        unsealed.set(p, t);
        if (p > head) head = p;
      },
    });
    const stoppedAt = performance.now();
    const lastHead = head;
    while ((await chainedTo(pool)) < lastHead && performance.now() - stoppedAt < 30_000) await sleep(10);
    const drainMs = performance.now() - stoppedAt;
    sampling = false;
    await sampler;
    const window = samples.filter((s) => s.t <= stoppedAt);
    const first = window[0];
    const last = window[window.length - 1];
    const sealedRate = first && last && last.t > first.t ? (last.chained - first.chained) / ((last.t - first.t) / 1000) : NaN;
    const lagMs = window.map((s) => s.ms);
    return {
      alone,
      withSealer,
      sealedRate,
      catchUpSeconds,
      catchUpEvents: head0 - chainedBefore,
      lagP50Ms: percentile(lagMs, 50),
      lagP99Ms: percentile(lagMs, 99),
      lagMaxMs: Math.max(...lagMs),
      lagMaxPositions: Math.max(...window.map((s) => s.positions)),
      finalLagPositions: last?.positions ?? NaN,
      finalLagMs: last?.ms ?? NaN,
      drainMs,
    };
  } finally {
    if (child && child.exitCode === null) {
      child.send('stop');
      await new Promise((r) => child.once('exit', r));
    }
    await store.close();
    await pool.end();
  }
}
