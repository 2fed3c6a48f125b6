#!/usr/bin/env node
// Entitlement stream benchmark: `npm run bench:entitlements` (builds the server first).
//
// Runs the built api as its own process (full mode: DATABASE_URL on infra's PostgreSQL,
// projections in process, nothing else configured) and, in one run on that one process:
//   1. seeds BENCH_DEVICES (2,000) customers on the free plan, each with one desktop device
//      signed in (see entitlements/seed.mjs for the path and why);
//   2. opens every device's GET /devices/entitlements/stream and waits for each first document;
//   3. reads the api's RSS before and after: memory per connected device (target < 50 KB);
//   4. a staff member raises the free plan's clients per network through the console's call
//      (PUT /admin-panel/plans/free); each device notes when its new document arrives, which is
//      checked (signature against GET /devices/keys/, same device, newer seq, the new limit).
//      Latency runs from the plan event's append (es_events.recorded_at in the api's own
//      database) to receipt; target p99 < 1 s with every device served;
//   5. the api's CPU (utime + stime) per device per minute while the devices hold their streams
//      for BENCH_SECONDS (60), then while they instead poll GET /plan/ every 30 s (Keygen-style,
//      spread evenly) for as long: streaming should be the cheaper.
// Prints one line per figure with its target; exits 0 on a MISS (it is a report), 1 if it broke.
// Stops the api, and the PostgreSQL server it started, when done, failed or interrupted.
import pg from 'pg';
import { verifyEntitlementToken } from '@meshwork/contracts';
import * as infra from '../lib/index.mjs';
import apiProcess from '@meshwork/testkit/api/api-process.cjs';
import { ownServers } from '../lib/own-servers.cjs';
import { pollPlans } from './entitlements/polling.mjs';
import { cpuSeconds, quiet, residentBytes } from './entitlements/process-stats.mjs';
import { seedDevices } from './entitlements/seed.mjs';
import { awaitDocuments, openStreams } from './entitlements/streams.mjs';
import { runBenchmark } from './run-benchmark.mjs';

const deviceCount = Number(process.env.BENCH_DEVICES ?? 2000);
const seconds = Number(process.env.BENCH_SECONDS ?? 60);
const SEED_CONCURRENCY = 4;
const POLL_INTERVAL_SECONDS = 30;
const NEW_DOCUMENT_TIMEOUT_MS = 30_000;
const PLAN = 'free';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const now = () => performance.timeOrigin + performance.now();

/** The api's CPU seconds over `run()`: what it spent while `run` loaded it. */
async function apiCpuDuring(pid, run) {
  const before = cpuSeconds(pid);
  const result = await run();
  return { cpu: cpuSeconds(pid) - before, result };
}

/**
 * Staff raise the plan's clients per network by one. `expect(limit)` is called with the new
 * limit before the edit is sent (a stream may deliver before the call answers); answers the
 * call's start and end and the plan event's append time, all in epoch milliseconds.
 */
async function editPlan(api, staffToken, expect) {
  const headers = { authorization: `Bearer ${staffToken}`, 'content-type': 'application/json' };
  const plan = await (await fetch(`${api.base}/admin-panel/plans/${PLAN}`, { headers })).json();
  const limit = plan.max_clients + 1;
  const db = new pg.Client({ connectionString: api.databaseUrl });
  await db.connect();
  try {
    const { rows: head } = await db.query('SELECT coalesce(max(position), 0) AS position FROM es_events');
    const arrived = expect(limit);
    const requestedAt = now();
    const response = await fetch(`${api.base}/admin-panel/plans/${PLAN}`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ max_clients: limit }),
    });
    const answeredAt = now();
    if (response.status !== 200) throw new Error(`PUT plan: ${response.status} ${await response.text()}`);
    // recorded_at is the append's transaction time; float8 epoch keeps its microseconds.
    const { rows } = await db.query(
      `SELECT type, extract(epoch FROM recorded_at)::float8 * 1000 AS at FROM es_events WHERE position > $1 ORDER BY position LIMIT 1`,
      [head[0].position],
    );
    if (rows.length === 0) throw new Error('the plan edit appended no event');
    await arrived;
    return { limit, requestedAt, answeredAt, appendedAt: rows[0].at, eventType: rows[0].type };
  } finally {
    await db.end();
  }
}

/** How many awaited documents verify: signature, the same device, newer than the first, the new limit. */
async function verifiedCount(api, streams, limit) {
  const keys = await (await fetch(`${api.base}/devices/keys/`)).json();
  let valid = 0;
  for (const stream of streams.filter((s) => s.awaited)) {
    const first = stream.first.payload;
    const verdict = await verifyEntitlementToken(stream.awaited, keys, new Date(), { deviceId: first.sub, minSeq: first.seq + 1 });
    if (verdict.status === 'valid' && verdict.document.plan.max_clients_per_network === limit) valid++;
  }
  return valid;
}

const servers = ownServers(infra);
let api;
let streams = [];

async function main() {
  // A DATABASE_URL given (`eval "$(node infra/scripts/infra.mjs env)"`) is used as it is; else infra's PostgreSQL is started.
  if (!process.env.DATABASE_URL) await servers.start(['postgres']);
  api = await apiProcess.startApiProcess('bench_entitlements', process.env.DATABASE_URL ?? infra.env().DATABASE_URL, {
    AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
  });
  const rows = [];
  const row = (line, value, target = '', pass = null) => rows.push([line, value, target, pass === null ? '' : pass ? 'PASS' : 'MISS']);
  // 1. Customers with a signed-in device each.
  const seeded = await seedDevices(api.base, deviceCount, SEED_CONCURRENCY);
  row(`seeding ${deviceCount} customers + devices (argon2id x2 each, ${SEED_CONCURRENCY} at a time)`, `${seeded.seconds.toFixed(1)} s`);
  const staffToken = await api.staffToken();

  // 2 and 3. Every device on its stream; the api's memory before and after.
  const settled = await quiet(api.pid);
  row('api busy after seeding (projections catching up)', `${settled.toFixed(0)} s`);
  const rssBefore = residentBytes(api.pid);
  const opening = performance.now();
  streams = await openStreams(api.base, seeded.devices);
  const openSeconds = (performance.now() - opening) / 1000;
  await quiet(api.pid);
  const rssAfter = residentBytes(api.pid);
  const perDevice = (rssAfter - rssBefore) / deviceCount / 1024;
  row(
    'streams open, each with its first document',
    `${streams.length} in ${openSeconds.toFixed(1)} s`,
    `${deviceCount}`,
    streams.length === deviceCount,
  );
  row('api RSS before / after the streams', `${(rssBefore / 2 ** 20).toFixed(0)} / ${(rssAfter / 2 ** 20).toFixed(0)} MB`);
  row('api RSS per connected device', `${perDevice.toFixed(1)} KB`, '< 50 KB', perDevice < 50);

  // 4. Staff edit the plan; every device should get its new document.
  const heartbeatsBefore = streams.reduce((n, s) => n + s.heartbeats, 0);
  const edit = await editPlan(api, staffToken, (limit) =>
    awaitDocuments(streams, (payload) => payload.plan.max_clients_per_network === limit, NEW_DOCUMENT_TIMEOUT_MS),
  );
  const received = streams.filter((s) => s.awaited);
  const latencies = received.map((s) => s.arrivedAt - edit.appendedAt).sort((a, b) => a - b);
  const [p50, p99, max] = [percentile(latencies, 50), percentile(latencies, 99), latencies.at(-1)];
  const verified = await verifiedCount(api, streams, edit.limit);
  const ms = (v) => (v === undefined ? '-' : `${v.toFixed(0)} ms`);
  row(
    `staff plan edit: ${edit.eventType} appended after the request's start / answered`,
    `${ms(edit.appendedAt - edit.requestedAt)} / ${ms(edit.answeredAt - edit.requestedAt)}`,
  );
  row('devices that received the new document', `${received.length} / ${deviceCount}`, `${deviceCount}`, received.length === deviceCount);
  row(
    'new documents verified (signature, device, seq, limit)',
    `${verified} / ${received.length}`,
    `${deviceCount}`,
    verified === deviceCount,
  );
  row(
    'append -> receipt p50 / p99 / max',
    `${ms(p50)} / ${ms(p99)} / ${ms(max)}`,
    'p99 < 1 s',
    received.length === deviceCount && p99 < 1000,
  );

  // 5. CPU: holding the streams, then polling instead.
  await quiet(api.pid);
  const holding = await apiCpuDuring(api.pid, () => sleep(seconds * 1000));
  const heartbeats = streams.reduce((n, s) => n + s.heartbeats, 0) - heartbeatsBefore;
  const dropped = streams.filter((s) => s.ended).length;
  for (const stream of streams) stream.close();
  streams = [];
  row(`streams dropped while held ${seconds} s (heartbeats received)`, `${dropped} (${heartbeats})`, '0', dropped === 0);
  await quiet(api.pid); // the api notices the closed streams
  const polling = await apiCpuDuring(api.pid, () => pollPlans(api.base, seeded.devices, POLL_INTERVAL_SECONDS, seconds));
  const perDeviceMinute = (cpu) => (cpu * 1000) / deviceCount / (seconds / 60);
  const [streamCost, pollCost] = [perDeviceMinute(holding.cpu), perDeviceMinute(polling.cpu)];
  row('api CPU per device per minute, holding the stream', `${streamCost.toFixed(3)} ms`);
  row(
    `api CPU per device per minute, polling GET /plan/ every ${POLL_INTERVAL_SECONDS} s`,
    `${pollCost.toFixed(3)} ms (${polling.result.polls} polls, ${polling.result.failures} failed)`,
    '0 failed',
    polling.result.failures === 0,
  );
  const ratio = pollCost / streamCost;
  row('polling / streaming', Number.isFinite(ratio) ? `${ratio.toFixed(1)}x` : 'streaming ~0', '> 1', pollCost > streamCost);
  const width = Math.max(...rows.map((r) => r[0].length));
  console.log(`\nEntitlement stream benchmark (${deviceCount} devices, ${seconds} s windows, ${new Date().toISOString()})`);
  for (const [line, value, target, verdict] of rows)
    console.log(`${line.padEnd(width)}  ${String(value).padStart(28)}  ${target.padEnd(10)} ${verdict}`);
}

async function cleanup() {
  try {
    for (const stream of streams) stream.close();
    await api?.stop();
  } finally {
    await servers.stop();
  }
}

await runBenchmark(main, cleanup, 'closing the streams, stopping the api and the servers this run started');
