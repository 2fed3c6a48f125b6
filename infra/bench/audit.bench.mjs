#!/usr/bin/env node
// Audit benchmark: `npm run bench:audit` (builds the server code first). Issue 15 §8.
//
// On infra's PostgreSQL (fsync and synchronous_commit on), in a database made and dropped here:
//   set-up (untimed, durations printed): the built api starts once on the empty database
//     (migrations, seeded plans) and create-staff makes a staff account; then a year of
//     history, BENCH_EVENTS (1,000,000) events of BENCH_USERS (8,000) accounts (see
//     audit/history.mjs), is appended through PostgresEventStore; the audit trail, users and
//     analytics read models are built from position 0 by ProjectionRunner and the hash chain
//     by LogSealer, concurrently; VACUUM ANALYZE + CHECKPOINT.
//   1. audit list: GET /api/v1/admin-panel/audit/ through the built api (staff bearer token),
//      the first page and filtered pages, BENCH_REQUESTS (200) each after 20 warm-ups, p50/p95.
//      Baseline, alternating with it: the same SELECT on the same table straight from
//      node-postgres (what the page costs PostgreSQL), and GET /health/ping (what HTTP costs).
//   2. analytics: GET /api/v1/admin-panel/analytics/?dateRange=1y, same sampling, against ping.
//   3. audit:verify: the real command (dist/api/src/cli/audit-verify.main.js) over the log,
//      its own events/s; baseline: the same rows read in the same 10,000-row batches and
//      chained with plain SHA-256 (link()), without the chain table, comparisons or seals.
//   4. sealer lag: 16 writers appending single events (the event store benchmark's load) for
//      BENCH_BASELINE_SECONDS (10) alone, then BENCH_SEAL_SECONDS (20) with the LogSealer
//      running in its own process: append rates, sealed rate, lag in positions and ms.
// Ratios read "times as good as": baseline/ours for latency, ours/baseline for rates.
//
// Quick run: BENCH_EVENTS=100000 BENCH_USERS=1000 BENCH_REQUESTS=50 BENCH_SEAL_SECONDS=5 BENCH_BASELINE_SECONDS=3
// DATABASE_URL: use that server instead of infra's.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import apiProcess from '@meshwork/testkit/api/api-process.cjs';
import { env, start, status, stop } from '../lib/index.mjs';
import { eventBuilder } from './audit/events.mjs';
import { buildReadModels, dist, fillLog, settle } from './audit/fill.mjs';
import { buildHistory } from './audit/history.mjs';
import { alternate, getter } from './audit/latency.mjs';
import { sealerLag } from './audit/sealer-lag.mjs';
import { runBenchmark } from './run-benchmark.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const num = (name, dflt) => (process.env[name] ? Number(process.env[name]) : dflt);
const cfg = {
  events: num('BENCH_EVENTS', 1_000_000),
  users: num('BENCH_USERS', 8_000),
  requests: num('BENCH_REQUESTS', 200),
  sealSeconds: num('BENCH_SEAL_SECONDS', 20),
  baselineSeconds: num('BENCH_BASELINE_SECONDS', 10),
};
const STAFF = { email: 'bench-staff@example.com', password: 'Staff1Password' };
const BUILT = ['audit_trail', 'users', 'analytics'];

const log = (s) => process.stdout.write(`${s}\n`);
const int = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a');
const ms = (n) => (Number.isFinite(n) ? (n < 10 ? n.toFixed(1) : Math.round(n).toString()) : 'n/a');
const loadText = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const secs = (t0) => ((performance.now() - t0) / 1000).toFixed(1);

let startedPostgres = false;
let admin;
let database;
let dataDir;
let api;

async function serverUrl() {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const [s] = await status(['postgres']);
  if (!s.ready) startedPostgres = (await start('postgres')).started;
  return env().DATABASE_URL;
}

/** The built api on the benchmark database; resolves with its base URL once it answers. */
async function startApi(appEnv) {
  const port = await apiProcess.freePort();
  api = apiProcess.spawnApi(
    { ...appEnv, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, AUTH_RATE_LIMIT_PER_MINUTE: '1000000' },
    ['ignore', 'ignore', 'inherit'],
  );
  const base = `http://127.0.0.1:${port}/api/v1`;
  for (let i = 0; ; i++) {
    if (
      await fetch(`${base}/health/ping`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return base;
    if (api.exitCode !== null || i > 600) throw new Error('api did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function stopApi() {
  if (api && api.exitCode === null && api.signalCode === null) {
    api.kill('SIGTERM');
    await new Promise((r) => api.once('exit', r));
  }
  api = null;
}

/** Runs one of the api's built commands against the benchmark database; resolves with its stdout. */
function tool(script, args, appEnv) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'dist/api/src', script), ...args], {
      env: appEnv,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${script} exited ${code}: ${out}`))));
  });
}

async function main() {
  const tAll = performance.now();
  const server = await serverUrl();
  admin = new pg.Client({ connectionString: server });
  await admin.connect();
  const { rows: settings } = await admin.query(
    `SELECT current_setting('server_version') AS v, current_setting('fsync') AS fsync, current_setting('synchronous_commit') AS sc, current_setting('shared_buffers') AS sb`,
  );
  const s = settings[0];
  log(
    `Audit benchmark — PostgreSQL ${s.v} (fsync=${s.fsync}, synchronous_commit=${s.sc}, shared_buffers=${s.sb}); Node ${process.version}, ${os.cpus().length} cores, load ${loadText()}`,
  );
  database = `bench_audit_${process.pid}`;
  await admin.query(`CREATE DATABASE ${database}`);
  const u = new URL(server);
  u.pathname = `/${database}`;
  const url = u.toString();
  dataDir = path.join(root, '.infra', `process-${database}`);
  const appEnv = { ...process.env, DATABASE_URL: url, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };

  // --- set-up, untimed -------------------------------------------------------------------
  let t0 = performance.now();
  await startApi(appEnv);
  await tool('cli/create-staff.main.js', ['--email', STAFF.email, '--password', STAFF.password], appEnv);
  await stopApi();
  const { loadSecrets } = dist('api/src/platform/config/secrets.js');
  const secrets = loadSecrets({ dataDir });
  const pool = new pg.Pool({ connectionString: url, max: 8 });
  // The database is dropped WITH (FORCE) at the end: an idle connection's FATAL is expected then.
  pool.on('error', () => undefined);
  const staffId = (await pool.query("SELECT stream_id FROM es_events WHERE type = 'UserRegistered' LIMIT 1")).rows[0].stream_id.slice(
    'user-'.length,
  );
  log(`set-up: empty api, migrations, seeded plans and a staff account in ${secs(t0)} s`);

  t0 = performance.now();
  const history = buildHistory({ total: cfg.events, users: cfg.users });
  const { PersonalDataVault } = dist('api/src/identity/infrastructure/personal-data-vault.js');
  const { UserEventCodec } = dist('api/src/identity/infrastructure/user-event-codec.js');
  const { SEEDED_PLANS } = dist('api/src/billing/application/seed-plans.js');
  const vault = new PersonalDataVault(pool, secrets.dataEncryptionKey, 3_600_000);
  for (let i = 0; i < history.accounts.length; i += 500)
    await Promise.all(history.accounts.slice(i, i + 500).map((a) => vault.createKey(a.id)));
  const build = eventBuilder({
    accounts: history.accounts,
    codec: new UserEventCodec(vault),
    plans: SEEDED_PLANS,
    staff: {
      userId: staffId,
      isStaff: true,
      ip: '198.51.100.7',
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0',
    },
  });
  log(`history: ${int(cfg.events)} events of ${int(cfg.users)} accounts over a year, personal-data keys made, in ${secs(t0)} s`);
  t0 = performance.now();
  let shown = 0;
  const { appends } = await fillLog(url, history.records, build, {
    onWindow: (done) => {
      if (done - shown >= 250_000 || done === history.records.length) {
        shown = done;
        log(`  filled ${int(done)} (${secs(t0)} s)`);
      }
    },
  });
  const fillSeconds = (performance.now() - t0) / 1000;
  log(
    `fill: ${int(cfg.events)} events in ${int(appends)} appends (one per stream and 30-day window) in ${fillSeconds.toFixed(1)} s (${int(cfg.events / fillSeconds)} ev/s)`,
  );

  t0 = performance.now();
  const built = await buildReadModels(url, secrets, BUILT);
  log(
    `read models and chain from position 0 to ${int(built.head)}, concurrently: ` +
      Object.entries(built.seconds)
        .map(([k, v]) => `${k} ${v.toFixed(1)} s (${int(built.head / v)} ev/s)`)
        .join(', '),
  );
  t0 = performance.now();
  await settle(url);
  log(`VACUUM ANALYZE + CHECKPOINT in ${secs(t0)} s`);

  // --- 1 and 2: the api -------------------------------------------------------------------
  const base = await startApi(appEnv);
  const login = await fetch(`${base}/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(STAFF),
  });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${await login.text()}`);
  const get = getter(base, (await login.json()).tokens.access);
  const ping = () => fetch(`${base}/health/ping`).then((r) => r.arrayBuffer());
  const { readModelSchema } = dist('api/src/platform/projections/projection.js');
  const entries = `${readModelSchema('audit_trail')}.entries`;
  const sql = new pg.Pool({ connectionString: url, max: 1 });
  sql.on('error', () => undefined);
  const COLUMNS = `position, event_id, type, resource_type, resource_id, stream_version, occurred_at, actor_user_id, actor_is_staff,
              actor_ip, actor_user_agent, key_owner, correlation_id, causation_id, details`;

  const busiest = (
    await pool.query(
      `SELECT actor_user_id AS id, count(*)::int AS n FROM ${entries} WHERE NOT actor_is_staff AND actor_user_id IS NOT NULL GROUP BY 1 ORDER BY 2 DESC LIMIT 1`,
    )
  ).rows[0];
  const subscription = (
    await pool.query(
      `SELECT resource_id AS id, count(*)::int AS n FROM ${entries} WHERE resource_type = 'subscription' GROUP BY 1 ORDER BY 2 DESC LIMIT 1`,
    )
  ).rows[0];
  const mid = new Date(history.start + 182 * 86_400_000);
  const from = new Date(Date.UTC(mid.getUTCFullYear(), mid.getUTCMonth(), 1));
  const to = new Date(Date.UTC(mid.getUTCFullYear(), mid.getUTCMonth() + 1, 1));
  const where = (conds) => (conds.length ? `WHERE ${conds.join(' AND ')}` : '');
  const lines = [
    ['first page (no filter)', '', [], []],
    [`by actor (busiest account, ${int(busiest.n)} entries)`, `actor=${busiest.id}`, ['actor_user_id = $1'], [busiest.id]],
    ['by action (PaymentRefunded)', 'action=PaymentRefunded', ['type = $1'], ['PaymentRefunded']],
    ['by action (UserSignedIn)', 'action=UserSignedIn', ['type = $1'], ['UserSignedIn']],
    [
      `by resource (subscription, ${subscription.n} entries)`,
      `resource_type=subscription&resource_id=${subscription.id}`,
      ['resource_type = $1', 'resource_id = $2'],
      ['subscription', subscription.id],
    ],
    [
      `by time (${from.toISOString().slice(0, 7)}, mid-year)`,
      `from=${from.toISOString()}&to=${to.toISOString()}`,
      ['occurred_at >= $1', 'occurred_at < $2'],
      [from, to],
    ],
    ['page 2 of by action (UserSignedIn)', null, null, null],
  ];
  const results = [];
  log(`\naudit list, ${cfg.requests} requests per line after 20 warm-ups, alternating with the baselines:`);
  for (const [label, query, conds, values] of lines) {
    let q = query;
    let c = conds;
    let v = values;
    if (q === null) {
      // The second page: the cursor the first page of the same filter handed out.
      const first = await get('/admin-panel/audit/?action=UserSignedIn');
      q = `action=UserSignedIn&cursor=${first.next_cursor}`;
      c = ['type = $1', 'position < $2'];
      v = ['UserSignedIn', first.next_cursor];
    }
    const page = await get(`/admin-panel/audit/${q ? `?${q}` : ''}`);
    if (page.results.length === 0) log(`  WARNING: ${label} returned no entries`);
    const text = `SELECT ${COLUMNS} FROM ${entries} ${where(c)} ORDER BY position DESC LIMIT 51`;
    const r = await alternate(
      { ours: () => get(`/admin-panel/audit/${q ? `?${q}` : ''}`), sql: () => sql.query(text, v), ping },
      { n: cfg.requests, warmup: 20 },
    );
    const plan = (await sql.query(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, v)).rows.map((row) => row['QUERY PLAN']);
    results.push({ label: `audit ${label}`, r, target: 100, plan });
    log(
      `  ${label}: ours p50 ${ms(r.ours.p50)} / p95 ${ms(r.ours.p95)} ms; plain SQL p95 ${ms(r.sql.p95)} ms; ping p95 ${ms(r.ping.p95)} ms; ${page.results.length} entries`,
    );
  }
  // Analytics: present once the analytics context is in the api.
  let analytics = null;
  try {
    const report = await get('/admin-panel/analytics/?dateRange=1y');
    const r = await alternate({ ours: () => get('/admin-panel/analytics/?dateRange=1y'), ping }, { n: cfg.requests, warmup: 20 });
    analytics = { label: 'analytics ?dateRange=1y', r, target: 200 };
    log(
      `analytics 1y: ours p50 ${ms(r.ours.p50)} / p95 ${ms(r.ours.p95)} ms; ping p95 ${ms(r.ping.p95)} ms; ` +
        `${int(report.summary.totalUsers)} users, ${int(report.summary.newUsers)} new, revenue $${int(report.summary.totalRevenue)}, ${report.modelUsage.length} models, top ${report.summary.topModel}`,
    );
  } catch (error) {
    log(`analytics 1y: not measured (${error.message.split('\n')[0]})`);
  }
  await sql.end();
  await stopApi();

  // --- 3: audit:verify --------------------------------------------------------------------
  log('\naudit:verify:');
  const out = await tool('cli/audit-verify.main.js', [], appEnv);
  log(`  ${out.trim()}`);
  const verifyRate = Number(/([\d.]+) events\/s/.exec(out)?.[1]);
  const { CHAINED_COLUMNS, GENESIS, link } = dist('api/src/platform/event-store/chain/log-chain.js');
  t0 = performance.now();
  let previous = GENESIS;
  let after = 0;
  let read = 0;
  for (;;) {
    const { rows } = await pool.query(
      `SELECT ${CHAINED_COLUMNS} FROM es_events WHERE position > $1 ORDER BY es_events.position LIMIT 10000`,
      [after],
    );
    for (const row of rows) previous = link(previous, row);
    read += rows.length;
    if (rows.length < 10000) break;
    after = Number(rows[rows.length - 1].position);
  }
  const plainRate = read / ((performance.now() - t0) / 1000);
  log(`  baseline: ${int(read)} rows read in 10,000-row batches and chained with plain SHA-256: ${int(plainRate)} events/s`);

  // --- 4: sealer lag ----------------------------------------------------------------------
  log(`\nsealer lag, 16 writers: ${cfg.baselineSeconds} s alone, then ${cfg.sealSeconds} s with the LogSealer:`);
  const lag = await sealerLag(url, secrets.dataEncryptionKey, { seconds: cfg.sealSeconds, baselineSeconds: cfg.baselineSeconds });
  log(
    `  appends alone ${int(lag.alone)} ev/s; with the sealer ${int(lag.withSealer)} ev/s, sealed ${int(lag.sealedRate)} ev/s; ` +
      `sealer caught up ${int(lag.catchUpEvents)} events in ${lag.catchUpSeconds.toFixed(1)} s first; ` +
      `lag p50 ${ms(lag.lagP50Ms)} ms, p99 ${ms(lag.lagP99Ms)} ms, max ${ms(lag.lagMaxMs)} ms / ${int(lag.lagMaxPositions)} positions; ` +
      `at the end ${int(lag.finalLagPositions)} positions, ${ms(lag.finalLagMs)} ms; drained ${ms(lag.drainMs)} ms after the writers stopped`,
  );
  await pool.end();

  printTable({ results, analytics, verifyRate, plainRate, lag });
  const slow = results.filter((x) => x.r.ours.p95 >= x.target);
  for (const x of slow) log(`\nplan of the slow line "${x.label}" (plain SQL):\n  ${x.plan.join('\n  ')}`);
  log(
    `\ntotal ${secs(tAll)} s; load at the end ${loadText()} (above 2 on this machine, other work shared the cores and the figures are understated)`,
  );
}

function printTable({ results, analytics, verifyRate, plainRate, lag }) {
  const mark = (ok) => (ok ? 'PASS' : 'MISS');
  const rows = [];
  for (const x of results)
    rows.push([
      `${x.label}, p95 ms`,
      ms(x.r.ours.p95),
      `sql ${ms(x.r.sql.p95)}`,
      (x.r.sql.p95 / x.r.ours.p95).toFixed(2),
      `<${x.target} ${mark(x.r.ours.p95 < x.target)}`,
    ]);
  if (analytics)
    rows.push([
      `${analytics.label}, p95 ms`,
      ms(analytics.r.ours.p95),
      `ping ${ms(analytics.r.ping.p95)}`,
      (analytics.r.ping.p95 / analytics.r.ours.p95).toFixed(2),
      `<200 ${mark(analytics.r.ours.p95 < 200)}`,
    ]);
  else rows.push(['analytics ?dateRange=1y, p95 ms', 'n/a', '', '', 'not measured']);
  rows.push([
    'audit:verify events/s',
    int(verifyRate),
    `plain ${int(plainRate)}`,
    (verifyRate / plainRate).toFixed(2),
    `>=100,000 ${mark(verifyRate >= 100_000)}`,
  ]);
  rows.push([
    '16-writer appends/s with the sealer',
    int(lag.withSealer),
    `alone ${int(lag.alone)}`,
    (lag.withSealer / lag.alone).toFixed(2),
    '',
  ]);
  const keeps = lag.sealedRate / lag.withSealer >= 0.98 && lag.drainMs < 1000;
  rows.push([
    'sealed events/s',
    int(lag.sealedRate),
    `appended ${int(lag.withSealer)}`,
    (lag.sealedRate / lag.withSealer).toFixed(2),
    `keeps up (>=0.98, drained <1 s) ${mark(keeps)}`,
  ]);
  rows.push([
    'sealer lag max / final, ms',
    `${ms(lag.lagMaxMs)} / ${ms(lag.finalLagMs)}`,
    `positions ${int(lag.lagMaxPositions)} / ${int(lag.finalLagPositions)}`,
    '',
    '',
  ]);
  const head = ['line', 'ours', 'baseline', 'ratio', 'target'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) =>
    cells
      .map((c, i) => (i === 0 || i === 4 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join(' | ')
      .trimEnd();
  log('');
  log(line(head));
  log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const r of rows) log(line(r));
  log(
    '\nRatios read "times as good as": baseline/ours for latency (sql = the same SELECT from node-postgres, ping = GET /health/ping), ours/baseline for rates.',
  );
}

let finishing = false;
async function cleanup() {
  if (finishing) return;
  finishing = true;
  await stopApi().catch(() => undefined);
  if (admin && database) await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
  await admin?.end().catch(() => undefined);
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  if (startedPostgres) await stop('postgres');
}

await runBenchmark(main, cleanup, 'dropping the benchmark database');
