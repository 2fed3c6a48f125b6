#!/usr/bin/env node
// Event store benchmark: `npm run bench:eventstore` (builds the server code first).
//
// Measures Meshwork's PostgreSQL event store ("ours": dist/api/.../postgres-event-store.js and
// the ProjectionRunner) on the real PostgreSQL 18 that infra/ runs on loopback, with fsync and
// synchronous_commit ON, so every append is a durable commit. In the same run and on the same
// server it measures two baselines:
//
//   limit  The same rows in the same table (es_events, our migrations, same indexes), written
//          with a plain INSERT ... RETURNING position (one row per statement for the single
//          lines, one 100-row VALUES list for the batched line) and read with a plain keyset
//          SELECT, through a pg.Pool of the same size with the same concurrency. Everything
//          the store adds (es_streams row + expected-version check, the plpgsql function, the
//          idempotency lookup, NOTIFY, readAll's hole handling, RecordedEvent mapping) is
//          missing, so ours/limit is "what fraction of the hardware ceiling the store keeps".
//   peer   @event-driven-io/emmett-postgresql (pinned in infra/package.json), a PostgreSQL
//          event store from npm, with its own schema, appendToStream (expected version
//          checked), readMessagesBatch (what its consumers read with) and its consumer +
//          projector for the lag line.
//
// Lines (each system on a fresh database, created and dropped here):
//   1. single appends/s, 1 writer and 16 writers: each writer appends one event at a time
//      to its own stream, expected version checked, waiting for each append (a command
//      handler's pattern). Events are ~300 bytes of JSON data plus full metadata.
//   2. batched appends: 100 events per append, events/s, with 1 and 4 concurrent writers;
//      the table shows each system's best configuration, labelled.
//   3. catch-up: the log is filled with 1,000,000 events (1000-event appends, untimed,
//      then VACUUM ANALYZE + CHECKPOINT so no reader pays for the writer's hint bits or
//      dirty pages), then one reader pages through all of it; only reading is timed. The
//      limit reads the very same database as ours. The peer's page query has no index on
//      its global position (it sorts by transaction id, then position, after a sequential
//      scan of the whole table), so each page costs O(log size) and its reader is stopped
//      after BENCH_CATCHUP_MAX_SECONDS; its rate over the part it read is reported, labelled.
//   4. projection lag: 1,000 events/s of single appends for 20 s from 10 writers while the
//      system's projection mechanism upserts one read-model row per event. Lag = commit of
//      the projection batch holding the event minus the return of the event's append, per
//      event (warm-up second excluded), p50 and p99.
//
// Environment (quick run: BENCH_SECONDS=2 BENCH_CATCHUP_EVENTS=50000 BENCH_LAG_SECONDS=5):
//   BENCH_SECONDS (10)            timed seconds per append workload, after BENCH_WARMUP_SECONDS (1)
//   BENCH_SINGLE_WRITERS (1,16)   BENCH_BATCH (100)   BENCH_BATCH_WRITERS (1,4)
//   BENCH_CATCHUP_EVENTS (1000000) BENCH_PAGE (1000)  BENCH_CATCHUP_MAX_SECONDS (60) per reader
//   BENCH_CATCHUP_PASSES (2)      ours and limit read alternately this many times; best pass counts
//   BENCH_LAG_SECONDS (20)        BENCH_LAG_RATE (1000) BENCH_LAG_WRITERS (10)
//   BENCH_POOL (20)               pg.Pool size for every system
//   BENCH_SYSTEMS (ours,limit,peer)  BENCH_ONLY (single,batch,catchup,lag)
//   DATABASE_URL                  use that server instead of infra's (infra then leaves it alone)
import { fork } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { env, start, status, stop } from '../lib/index.mjs';
import { runBenchmark } from './run-benchmark.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const WORKER = path.join(here, 'eventstore', 'worker.mjs');

const num = (name, dflt) => (process.env[name] ? Number(process.env[name]) : dflt);
const list = (name, dflt) => (process.env[name] ? process.env[name].split(',').map((s) => s.trim()) : dflt);

const cfg = {
  seconds: num('BENCH_SECONDS', 10),
  warmupSeconds: num('BENCH_WARMUP_SECONDS', 1),
  singleWriters: list('BENCH_SINGLE_WRITERS', ['1', '16']).map(Number),
  batch: num('BENCH_BATCH', 100),
  batchWriters: list('BENCH_BATCH_WRITERS', ['1', '4']).map(Number),
  catchupEvents: num('BENCH_CATCHUP_EVENTS', 1_000_000),
  page: num('BENCH_PAGE', 1000),
  catchupMaxSeconds: num('BENCH_CATCHUP_MAX_SECONDS', 60),
  catchupPasses: num('BENCH_CATCHUP_PASSES', 2),
  lagSeconds: num('BENCH_LAG_SECONDS', 20),
  lagRate: num('BENCH_LAG_RATE', 1000),
  lagWriters: num('BENCH_LAG_WRITERS', 10),
  poolSize: num('BENCH_POOL', 20),
  systems: list('BENCH_SYSTEMS', ['ours', 'limit', 'peer']),
  only: list('BENCH_ONLY', ['single', 'batch', 'catchup', 'lag']),
};

// ---------------------------------------------------------------------------------------
// PostgreSQL: use infra's server, starting it only if it is not running, and stopping it
// at the end only if we started it.

let startedPostgres = false;
async function ensurePostgres() {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const [s] = await status(['postgres']);
  if (!s.ready) {
    const r = await start('postgres');
    startedPostgres = r.started;
  }
  return env().DATABASE_URL;
}

let serverUrl;
let admin;
const databases = new Set();
let dbCounter = 0;

function withDatabase(url, name) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function createDatabase(label) {
  const name = `bench_es_${process.pid}_${++dbCounter}_${label}`.replace(/[^a-z0-9_]/g, '_');
  await admin.query(`CREATE DATABASE ${name}`);
  databases.add(name);
  return { name, url: withDatabase(serverUrl, name) };
}

async function dropDatabase(name) {
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  databases.delete(name);
}

/** Runs one workload for one system in a fresh process; resolves with its result. */
function runWorker(system, workload, url, options) {
  return new Promise((resolve, reject) => {
    const child = fork(WORKER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let answer = null;
    child.on('message', (m) => (answer = m));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (answer?.ok) resolve(answer.result);
      else reject(new Error(`${system}/${workload} failed (exit ${code}):\n${answer?.error ?? 'no answer'}`));
    });
    child.send({ system, workload, url, options: { poolSize: cfg.poolSize, ...options } });
  });
}

/** One workload on a fresh database for each system; a failure is recorded, not fatal. */
async function perSystem(label, workload, options, systems = cfg.systems) {
  const out = {};
  for (const system of systems) {
    const db = await createDatabase(`${label}_${system}`);
    try {
      out[system] = await runWorker(system, workload, db.url, options);
      log(`  ${label.padEnd(12)} ${system.padEnd(5)} ${describe(workload, out[system])}`);
    } catch (error) {
      out[system] = { error: error.message };
      log(`  ${label.padEnd(12)} ${system.padEnd(5)} FAILED: ${error.message.split('\n').slice(0, 3).join(' | ')}`);
    } finally {
      await dropDatabase(db.name);
    }
  }
  return out;
}

const log = (s) => process.stdout.write(`${s}\n`);
const int = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a');
const ms = (n) => (Number.isFinite(n) ? (n < 10 ? n.toFixed(1) : Math.round(n).toString()) : 'n/a');
const cpuText = (c) => (c ? `cpu node ${c.nodePct}% pg ${c.pgPct}% other ${c.otherPct}% (of ${os.cpus().length * 100}%)` : '');
const perEvent = (r) => (Number.isFinite(r.cpuMicrosPerEvent) ? `, ${int(r.cpuMicrosPerEvent)} cpu-µs/event` : '');

function describe(workload, r) {
  if (workload === 'append')
    return (
      `${int(r.eventsPerSecond)} ev/s (${int(r.appendsPerSecond)} appends/s, p50 ${ms(r.appendP50)} ms, p99 ${ms(r.appendP99)} ms); ` +
      `${cpuText(r.cpu)}${perEvent(r)}; ${r.commitsPerAppend.toFixed(2)} commits/append, ${int(r.walBytesPerEvent)} WAL B/event, ${int(r.walFsyncsPerSecond)} WAL fsyncs/s`
    );
  if (workload === 'catchup')
    return `${int(r.eventsPerSecond)} ev/s (${int(r.read)} events in ${r.seconds.toFixed(1)} s, ${r.pages} pages${r.capped ? ', CAPPED by time' : ''}); ${cpuText(r.cpu)}${perEvent(r)}`;
  if (workload === 'fill') return `filled ${int(r.total)} in ${r.fillSeconds.toFixed(1)} s (${int(r.eventsPerSecond)} ev/s)`;
  if (workload === 'lag')
    return (
      `lag p50 ${ms(r.p50)} ms, p99 ${ms(r.p99)} ms, max ${ms(r.max)} ms over ${int(r.counted)} events ` +
      `(${int(r.achievedRate)} ev/s achieved, append p50 ${ms(r.appendP50)} / p99 ${ms(r.appendP99)} ms${r.notApplied ? `, ${r.notApplied} NOT APPLIED` : ''}); ${cpuText(r.cpu)}${perEvent(r)}`
    );
  return JSON.stringify(r);
}

// ---------------------------------------------------------------------------------------

async function main() {
  const t0 = Date.now();
  serverUrl = await ensurePostgres();
  admin = new pg.Pool({ connectionString: serverUrl, max: 1 });
  const { rows } = await admin.query(
    `SELECT current_setting('server_version') AS v, current_setting('fsync') AS fsync, current_setting('synchronous_commit') AS sc,
            current_setting('wal_sync_method') AS wsm, current_setting('shared_buffers') AS sb`,
  );
  const s = rows[0];
  log(
    `Event store benchmark — PostgreSQL ${s.v} (fsync=${s.fsync}, synchronous_commit=${s.sc}, wal_sync_method=${s.wsm}, shared_buffers=${s.sb})`,
  );
  log(
    `Node ${process.version}, ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; ` +
      `pool ${cfg.poolSize}; ${cfg.seconds} s per append workload (+${cfg.warmupSeconds} s warm-up)${startedPostgres ? '; started PostgreSQL' : ''}`,
  );

  const results = {};
  if (cfg.only.includes('single')) {
    for (const writers of cfg.singleWriters) {
      log(`single-event appends, ${writers} writer(s):`);
      results[`single${writers}`] = await perSystem(`single_${writers}w`, 'append', {
        writers,
        batch: 1,
        seconds: cfg.seconds,
        warmupSeconds: cfg.warmupSeconds,
      });
    }
  }
  if (cfg.only.includes('batch')) {
    results.batch = {};
    for (const writers of cfg.batchWriters) {
      log(`batched appends (${cfg.batch}/append), ${writers} writer(s):`);
      results.batch[writers] = await perSystem(`batch_${writers}w`, 'append', {
        writers,
        batch: cfg.batch,
        seconds: cfg.seconds,
        warmupSeconds: cfg.warmupSeconds,
      });
    }
  }
  if (cfg.only.includes('catchup')) {
    log(`catch-up over ${int(cfg.catchupEvents)} events, page ${cfg.page}:`);
    results.catchup = await catchupLine();
  }
  if (cfg.only.includes('lag')) {
    log(`projection lag at ${int(cfg.lagRate)} ev/s for ${cfg.lagSeconds} s (${cfg.lagWriters} writers):`);
    results.lag = await perSystem(
      'lag',
      'lag',
      {
        rate: cfg.lagRate,
        seconds: cfg.lagSeconds,
        writers: cfg.lagWriters,
        warmupSeconds: 1,
      },
      cfg.systems.filter((s) => s !== 'limit'), // plain SQL has no projection mechanism to measure
    );
  }

  printTable(results);
  log(`\ntotal ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}

/** ours and limit read the same filled database; the peer fills and reads its own. */
async function catchupLine() {
  const out = {};
  const fillOptions = { total: cfg.catchupEvents, batch: 1000, writers: 4 };
  const readOptions = { total: cfg.catchupEvents, page: cfg.page, maxSeconds: cfg.catchupMaxSeconds };
  const wanted = cfg.systems.filter((s) => s !== 'peer');
  if (wanted.length) {
    const db = await createDatabase('catchup_es');
    try {
      log(`  catchup      ours  ${describe('fill', await runWorker('ours', 'fill', db.url, fillOptions))}`);
      // Alternate the readers and keep each one's best pass, so a neighbour's burst of CPU
      // use during one pass does not decide the line.
      for (let pass = 1; pass <= cfg.catchupPasses; pass++) {
        for (const system of wanted) {
          const r = await runWorker(system, 'catchup', db.url, readOptions).catch((e) => ({ error: e.message }));
          log(`  catchup      ${system.padEnd(5)} pass ${pass}: ${r.error ? `FAILED: ${r.error}` : describe('catchup', r)}`);
          if (!r.error && !(out[system]?.eventsPerSecond >= r.eventsPerSecond)) out[system] = r;
          else out[system] ??= r;
        }
      }
      const u = await runWorker('limit-unparsed', 'catchup', db.url, readOptions).catch((e) => ({ error: e.message }));
      log(`  catchup      limit without jsonb/timestamptz parsing (info): ${u.error ? `FAILED: ${u.error}` : describe('catchup', u)}`);
      out['limit-unparsed'] = u;
    } catch (error) {
      log(`  catchup fill FAILED: ${error.message}`);
    } finally {
      await dropDatabase(db.name);
    }
  }
  if (cfg.systems.includes('peer')) {
    const db = await createDatabase('catchup_peer');
    try {
      log(`  catchup      peer  ${describe('fill', await runWorker('peer', 'fill', db.url, fillOptions))}`);
      out.peer = await runWorker('peer', 'catchup', db.url, readOptions);
      log(`  catchup      peer  ${describe('catchup', out.peer)}`);
    } catch (error) {
      out.peer = { error: error.message };
      log(`  catchup      peer  FAILED: ${error.message}`);
    } finally {
      await dropDatabase(db.name);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// The table. Ratios are always "times as good as": ours/limit and ours/peer for rates,
// limit/ours and peer/ours for lag (lower lag is better).

function printTable(results) {
  const rows = [];
  const rate = (r) => (r && !r.error ? r.eventsPerSecond : NaN);
  for (const w of cfg.singleWriters) {
    const r = results[`single${w}`];
    if (r)
      rows.push({
        line: `single appends/s, ${w} writer${w > 1 ? 's' : ''}`,
        ours: rate(r.ours),
        limit: rate(r.limit),
        peer: rate(r.peer),
        abs: w === 16 ? ['>=', 3000] : null,
        runs: r,
      });
  }
  if (results.batch) {
    const best = (system) => {
      let top = { v: NaN, w: null, run: null };
      for (const w of cfg.batchWriters) {
        const v = rate(results.batch[w]?.[system]);
        if (!(v <= top.v)) top = { v, w, run: results.batch[w]?.[system] };
      }
      return top;
    };
    const [o, l, p] = ['ours', 'limit', 'peer'].map(best);
    const cfgText = `best of ${cfg.batchWriters.join('/')}w: ours ${o.w ?? '-'}w, limit ${l.w ?? '-'}w, peer ${p.w ?? '-'}w`;
    rows.push({
      line: `batched ${cfg.batch}/append, events/s (${cfgText})`,
      ours: o.v,
      limit: l.v,
      peer: p.v,
      abs: ['>=', 20000],
      runs: { ours: o.run, limit: l.run, peer: p.run },
    });
  }
  if (results.catchup) {
    const c = results.catchup;
    const capped = c.peer?.capped ? `; peer capped at ${int(c.peer.read)} events` : '';
    rows.push({
      line: `catch-up events/s (${int(cfg.catchupEvents)} events, page ${cfg.page}${capped})`,
      ours: rate(c.ours),
      limit: rate(c.limit),
      peer: rate(c.peer),
      abs: ['>=', 50000],
      runs: c,
    });
  }
  if (results.lag) {
    const l = results.lag;
    const get = (r, k) => (r && !r.error ? r[k] : NaN);
    for (const [k, abs] of [
      ['p50', null],
      ['p99', ['<', 100]],
    ])
      rows.push({
        line: `projection lag ${k} ms @ ${int(cfg.lagRate)} ev/s`,
        ours: get(l.ours, k),
        limit: NaN,
        peer: get(l.peer, k),
        abs,
        lowerIsBetter: true,
        runs: k === 'p99' ? l : null,
      });
  }

  const fmt = (r, v) => (r.lowerIsBetter ? ms(v) : int(v));
  const ratio = (a, b, lower) => (Number.isFinite(a) && Number.isFinite(b) && a > 0 && b > 0 ? (lower ? b / a : a / b) : NaN);
  const table = rows.map((r) => {
    const rl = ratio(r.ours, r.limit, r.lowerIsBetter);
    const rp = ratio(r.ours, r.peer, r.lowerIsBetter);
    const checks = [];
    if (r.abs) {
      const [op, v] = r.abs;
      const ok = Number.isFinite(r.ours) && (op === '>=' ? r.ours >= v : r.ours < v);
      checks.push(`${op === '>=' ? '>=' : '<'}${int(v)} ${ok ? 'PASS' : 'MISS'}`);
    }
    if (!r.lowerIsBetter) checks.push(`lim>=0.6 ${Number.isFinite(rl) ? (rl >= 0.6 ? 'PASS' : 'MISS') : 'n/a'}`);
    checks.push(`peer>=1.0 ${Number.isFinite(rp) ? (rp >= 1.0 ? 'PASS' : 'MISS') : 'n/a'}`);
    return [
      r.line,
      fmt(r, r.ours),
      fmt(r, r.limit),
      fmt(r, r.peer),
      Number.isFinite(rl) ? rl.toFixed(2) : 'n/a',
      Number.isFinite(rp) ? rp.toFixed(2) : 'n/a',
      checks.join('  '),
    ];
  });
  const head = ['line', 'ours', 'limit', 'peer', 'ours/limit', 'ours/peer', 'targets'];
  const widths = head.map((h, i) => Math.max(h.length, ...table.map((t) => t[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 || i === 6 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ');
  log('');
  log(line(head));
  log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const t of table) log(line(t));
  log('');
  log(
    'limit = plain INSERT/SELECT of the same rows in the same table, same pool and concurrency (the ceiling); peer = @event-driven-io/emmett-postgresql.',
  );
  log('Ratios read "times as good as": for lag they are limit/ours and peer/ours. No raw limit exists for projection lag.');
  const u = results.catchup?.['limit-unparsed'];
  if (u && !u.error) log(`info: the limit's SELECT without node-postgres parsing of jsonb/timestamptz: ${int(u.eventsPerSecond)} ev/s.`);

  // Where the CPU went. cpu-µs/event = (node + postgres CPU time) / events: unlike a rate it
  // barely moves when a neighbour takes CPU. "other" = CPU used by everything else on the
  // machine during the line (other sessions, kernel threads), in % of one core.
  const cpuRows = rows.filter((r) => r.runs);
  if (cpuRows.length) {
    const cell = (run) => (run && !run.error && Number.isFinite(run.cpuMicrosPerEvent) ? int(run.cpuMicrosPerEvent) : 'n/a');
    const other = (run) => (run?.cpu ? `${run.cpu.otherPct}%` : '-');
    const t2 = cpuRows.map((r) => [
      r.lowerIsBetter ? `projection lag run (writes + projection)` : r.line.replace(/ \(.*\)$/, ''),
      cell(r.runs.ours),
      cell(r.runs.limit),
      cell(r.runs.peer),
      ['ours', 'limit', 'peer'].map((k) => other(r.runs[k])).join(' / '),
    ]);
    const h2 = ['line', 'cpu-µs/ev ours', 'limit', 'peer', 'other CPU ours / limit / peer'];
    const w2 = h2.map((h, i) => Math.max(h.length, ...t2.map((t) => t[i].length)));
    const line2 = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(w2[i]) : c.padStart(w2[i]))).join(' | ');
    log('');
    log(line2(h2));
    log(w2.map((w) => '-'.repeat(w)).join('-|-'));
    for (const t of t2) log(line2(t));
    const noisy = cpuRows.flatMap((r) => ['ours', 'limit', 'peer'].map((k) => r.runs[k]?.cpu?.otherPct ?? 0)).some((o) => o > 25);
    if (noisy) log('WARNING: other processes used > 25% of a core during some lines: their rates are understated; compare cpu-µs/event.');
  }
}

let finishing = false;
async function cleanup() {
  if (finishing) return;
  finishing = true;
  for (const name of [...databases]) await dropDatabase(name).catch(() => undefined);
  await admin?.end().catch(() => undefined);
  if (startedPostgres) await stop('postgres');
}

await runBenchmark(main, cleanup, 'dropping benchmark databases');
