#!/usr/bin/env node
// Webhooks benchmark: `npm run bench:webhooks` (builds the server first).
//
// Runs the built api as its own process (full mode on infra's PostgreSQL, any URL allowed for
// the loopback receiver) and, by default, the architecture's full-mode topology beside it: the
// api with PROJECTIONS_IN_PROCESS=false (its webhook sender, the dispatcher, stays there) and
// one projections worker process (dist/projections/src/main.js: the read models and the
// webhooks outbox projection) on the same database; BENCH_TOPOLOGY=embedded runs the
// projections in the api process instead. With BENCH_ENDPOINTS (100) Enterprise
// customers, one endpoint each, each at a server (an origin) of its own in this process: BENCH_HANGING (10) of them
// never answer, BENCH_FAILING (10) answer 500, the rest answer 204 at once. BENCH_EVENTS
// (10,000) NetworkCreated events are appended to the log (the event store's own append, 20
// at a time, spread evenly over the customers), each becoming one delivery: all at once (a
// burst, the default), or BENCH_RATE a second. Prints, for the healthy endpoints, the delivery
// latency (event recorded in the log -> request at the receiver) p50/p99/max, how many events
// never arrived (lost) and how many arrived more than once (duplicates); the attempts the
// hanging and failing endpoints got; where the time went (log -> outbox, the projection;
// outbox -> first attempt, the sender) and the load average. Target: p99 < 2 s, nothing
// lost. Stops the api and drops its database when done, failed or interrupted.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import * as infra from '../lib/index.mjs';
import apiProcess from '@meshwork/testkit/api/api-process.cjs';
import httpAccounts from '@meshwork/testkit/api/http-accounts.cjs';
import { ownServers } from '../lib/own-servers.cjs';
import { runBenchmark } from './run-benchmark.mjs';

const { callApi, registerOverHttp, subscribeOverHttp } = httpAccounts;
const require = createRequire(import.meta.url);
const dist = (p) => path.join(path.dirname(fileURLToPath(import.meta.url)), '../../dist', p);
const { PostgresEventStore } = require(dist('api/src/platform/event-store/postgres-event-store.js'));

const ENDPOINTS = Number(process.env.BENCH_ENDPOINTS ?? 100);
const HANGING = Number(process.env.BENCH_HANGING ?? 10);
const FAILING = Number(process.env.BENCH_FAILING ?? 10);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
/** Events appended per second (0, the default: as fast as the event store takes them, a burst). */
const RATE = Number(process.env.BENCH_RATE ?? 0);
const WAIT_MS = Number(process.env.BENCH_WAIT_SECONDS ?? 180) * 1000;
const PASSWORD = 'Bench1Password';
/** `workers` (the default): api + one projections worker process; `embedded`: projections in the api process. */
const TOPOLOGY = process.env.BENCH_TOPOLOGY ?? 'workers';
if (!['workers', 'embedded'].includes(TOPOLOGY)) throw new Error(`BENCH_TOPOLOGY is workers or embedded, not ${TOPOLOGY}`);

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const pool = (n, items, work) => {
  let next = 0;
  return Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
};

const servers = ownServers(infra);
let api;
let worker;
/** The endpoints' servers, one per endpoint. */
const receivers = [];
let db;
const hanging = new Set();

async function main() {
  await servers.start(['postgres']);
  const settings = {
    AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
    STRIPE_SECRET_KEY: '',
    STRIPE_API_BASE: '',
    STRIPE_WEBHOOK_SECRET: '',
    KAFKA_BROKERS: '',
    WEBHOOKS_ANY_URL: 'true',
    PROJECTIONS_IN_PROCESS: String(TOPOLOGY === 'embedded'),
    ...(process.env.BENCH_PROFILE ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${process.env.BENCH_PROFILE}` } : {}),
  };
  api = await apiProcess.startApiProcess('bench_webhooks', process.env.DATABASE_URL ?? infra.env().DATABASE_URL, settings);
  const { base } = api;
  if (TOPOLOGY === 'workers') worker = startWorker(api.databaseUrl, settings);
  console.log(
    `topology: ${TOPOLOGY === 'workers' ? 'api (sender) + 1 projections worker process (PROJECTIONS_IN_PROCESS=false)' : 'embedded (projections in the api process)'}`,
  );

  // The receiver: one server (port) per endpoint, as real endpoints are distinct origins: the
  // sender's keep-alive pool is per origin (a few idle sockets each), so one shared origin
  // would make nearly every delivery open a new connection. Arrivals by endpoint and event id.
  const arrivals = new Map();
  const receive = (n) => (request, response) => {
    const at = Date.now();
    request.resume();
    request.on('end', () => {
      const eventId = request.headers['meshwork-event-id'];
      const list = arrivals.get(n) ?? new Map();
      arrivals.set(n, list);
      list.set(eventId, [...(list.get(eventId) ?? []), at]);
      if (n < HANGING) return hanging.add(response);
      response.writeHead(n < HANGING + FAILING ? 500 : 204).end();
    });
  };
  const receiverUrls = await Promise.all(
    Array.from({ length: ENDPOINTS }, async (_, n) => {
      const server = http.createServer(receive(n));
      receivers.push(server);
      await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${server.address().port}/${n}`;
    }),
  );

  process.stdout.write(`setting up ${ENDPOINTS} Enterprise customers with an endpoint each...`);
  const customers = Array.from({ length: ENDPOINTS }, (_, n) => ({ n }));
  await pool(10, customers, async (customer) => {
    const name = `wh${customer.n}_${randomUUID().slice(0, 6)}`;
    const registered = await registerOverHttp(base, name, PASSWORD);
    const token = registered.tokens.access;
    await subscribeOverHttp(base, token, 'enterprise');
    customer.endpointId = (
      await callApi(base, '/webhooks/endpoints/', token, { url: receiverUrls[customer.n], event_types: ['network.created'] })
    ).id;
    customer.userId = registered.user.id;
  });
  console.log(' done');

  db = new pg.Pool({ connectionString: api.databaseUrl, max: 25 });
  // The set-up's tail (invoices, receipts, read models) is not the burst's: wait until every log consumer is at the head.
  const settleStarted = Date.now();
  for (;;) {
    const { rows } = await db.query(
      `SELECT count(*)::int AS behind FROM projection_checkpoints WHERE position < (SELECT coalesce(max(position), 0) FROM es_events)`,
    );
    if (rows[0].behind === 0 || Date.now() - settleStarted > 60_000) {
      console.log(`set-up settled in ${((Date.now() - settleStarted) / 1000).toFixed(1)} s (${rows[0].behind} log consumers behind)`);
      break;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await checkPlacement();
  const store = new PostgresEventStore(db);
  const metadata = { correlationId: randomUUID(), causationId: null, actor: { userId: null, isStaff: false, ip: null, userAgent: null } };
  const events = Array.from({ length: EVENTS }, (_, i) => customers[i % ENDPOINTS]);
  const appendStarted = performance.now();
  let appended = 0;
  await pool(20, events, async (customer) => {
    // Paced: the i-th event is not appended before i / RATE seconds.
    const i = appended++;
    if (RATE > 0) await new Promise((r) => setTimeout(r, Math.max(0, appendStarted + (i * 1000) / RATE - performance.now())));
    const networkId = randomUUID();
    const event = {
      eventId: randomUUID(),
      type: 'NetworkCreated',
      schemaVersion: 1,
      occurredAt: new Date(),
      data: { networkId, name: `bench ${networkId.slice(0, 8)}`, model: { id: randomUUID(), name: 'bench-model' } },
      metadata,
    };
    await store.append(`networks-${customer.userId}`, [event], 'any');
  });
  const appendSeconds = (performance.now() - appendStarted) / 1000;
  console.log(
    `appended ${EVENTS} events in ${appendSeconds.toFixed(1)} s (${Math.round(EVENTS / appendSeconds)}/s${RATE > 0 ? `, paced at ${RATE}/s` : ', a burst'})`,
  );

  // When each event entered the log, by id.
  const { rows } = await db.query(
    `SELECT event_id, (extract(epoch FROM recorded_at) * 1000)::float8 AS at, stream_id FROM es_events WHERE type = 'NetworkCreated'`,
  );
  const recorded = new Map(rows.map((r) => [r.event_id, r.at]));
  const owner = new Map(customers.map((c) => [c.userId, c.n]));
  const expected = new Map(); // endpoint n -> event ids
  for (const r of rows) {
    const n = owner.get(r.stream_id.slice('networks-'.length));
    expected.set(n, [...(expected.get(n) ?? []), r.event_id]);
  }
  const healthy = customers.filter((c) => c.n >= HANGING + FAILING).map((c) => c.n);
  const arrived = () => healthy.reduce((sum, n) => sum + (arrivals.get(n)?.size ?? 0), 0);
  const healthyExpected = healthy.reduce((sum, n) => sum + (expected.get(n)?.length ?? 0), 0);
  const deadline = Date.now() + WAIT_MS;
  while (arrived() < healthyExpected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));

  const latencies = [];
  let lost = 0;
  let duplicates = 0;
  for (const n of healthy) {
    for (const id of expected.get(n) ?? []) {
      const times = arrivals.get(n)?.get(id);
      if (!times) lost++;
      else {
        latencies.push(times[0] - recorded.get(id));
        duplicates += times.length - 1;
      }
    }
  }
  latencies.sort((a, b) => a - b);
  const attemptsAt = (from, to) => {
    let count = 0;
    for (let n = from; n < to; n++) for (const times of arrivals.get(n)?.values() ?? []) count += times.length;
    return count;
  };
  const p99 = percentile(latencies, 99);
  console.log(`healthy endpoints (${healthy.length}): ${latencies.length} of ${healthyExpected} events delivered`);
  console.log(
    `  delivery latency p50 ${Math.round(percentile(latencies, 50))} ms, p99 ${Math.round(p99)} ms, max ${Math.round(latencies[latencies.length - 1])} ms  (target p99 < 2000 ms)`,
  );
  console.log(`  lost ${lost}, duplicates ${duplicates}  (target: 0 lost)`);
  console.log(`hanging endpoints (${HANGING}): ${attemptsAt(0, HANGING)} requests held open (2 at a time each)`);
  console.log(
    `failing endpoints (${FAILING}): ${attemptsAt(HANGING, HANGING + FAILING)} first attempts answered 500 (retries follow in ~30 s)`,
  );
  // Where the time went: the log to the outbox (the projection), the outbox to the first attempt (the sender).
  const { rows: split } = await db.query(
    `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM d.created_at - e.recorded_at)) * 1000 AS to_outbox_p50,
            percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM d.created_at - e.recorded_at)) * 1000 AS to_outbox,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM a.at - d.created_at)) * 1000 AS to_attempt_p50,
            percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM a.at - d.created_at)) * 1000 AS to_attempt,
            extract(epoch FROM max(d.created_at) - min(e.recorded_at)) AS outbox_span
       FROM webhook_deliveries d JOIN es_events e ON e.event_id = d.event_id
       JOIN webhook_delivery_attempts a ON a.delivery_id = d.id AND a.attempt = 1
      WHERE d.endpoint_id = ANY ($1)`,
    [customers.filter((c) => healthy.includes(c.n)).map((c) => c.endpointId)],
  );
  const step = split[0];
  console.log(`  log -> outbox (projection) p50 ${Math.round(step.to_outbox_p50)} ms, p99 ${Math.round(step.to_outbox)} ms`);
  console.log(`  outbox -> first attempt (sender) p50 ${Math.round(step.to_attempt_p50)} ms, p99 ${Math.round(step.to_attempt)} ms`);
  console.log(`  first event in the log -> last healthy delivery row: ${Number(step.outbox_span).toFixed(1)} s`);
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' / ')} (1 / 5 / 15 min, ${os.cpus().length} cores)`,
  );
  console.log(`topology: ${TOPOLOGY}`);
  if (lost > 0 || !(p99 < 2000)) process.exitCode = 1;
}

/** The projections worker on the api's database, with the api's settings (stderr shown, as the api's). */
function startWorker(databaseUrl, settings) {
  const root = dist('..');
  const child = spawn(process.execPath, [dist('projections/src/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      ...settings,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      // The api's own data folder (api-process.cjs names it after the database; its stop() removes it).
      DATA_DIR: path.join(root, '.infra', `process-${new URL(databaseUrl).pathname.slice(1)}`),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`the projections worker exited (${code ?? signal})`);
      process.exitCode = 1;
    }
  });
  return child;
}

/**
 * Where the two halves run, from PostgreSQL's view (each pool names its connections
 * meshwork:<pid>): the webhooks projection's advisory lock (ExclusiveFollower, class 4242)
 * and the sender's LISTEN. In the workers topology the projection must be the worker's and
 * the LISTEN the api's: otherwise the figures would not be of the full mode.
 */
async function checkPlacement() {
  const holder = async (sql, args) => {
    const { rows } = await db.query(sql, args);
    return rows.map((r) => Number(r.application_name.slice('meshwork:'.length)));
  };
  const projection = await holder(
    `SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 AND l.classid = 4242
        AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
        AND l.objid = ((hashtext('webhooks')::bigint + 4294967296) % 4294967296)::oid`,
  );
  const listeners = await holder(
    `SELECT application_name FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN webhook_deliveries'`,
  );
  const name = (pid) => (pid === api.pid ? 'api' : pid === worker?.pid ? 'worker' : `pid ${pid}`);
  console.log(
    `webhooks projection in: ${projection.map(name).join(', ') || 'none'}; sender (LISTEN) in: ${listeners.map(name).join(', ') || 'none'}`,
  );
  const projectionIn = TOPOLOGY === 'workers' ? worker.pid : api.pid;
  if (projection.length !== 1 || projection[0] !== projectionIn || listeners.length !== 1 || listeners[0] !== api.pid) {
    throw new Error(`the webhooks projection and sender are not where the ${TOPOLOGY} topology puts them`);
  }
}

let stopping = false;

async function cleanup() {
  stopping = true;
  for (const response of hanging) response.destroy();
  for (const server of receivers) {
    server.closeAllConnections();
    server.close();
  }
  await db?.end();
  if (worker && worker.exitCode === null && worker.signalCode === null) {
    worker.kill('SIGTERM');
    await new Promise((r) => worker.once('exit', r));
  }
  await api?.stop();
  await servers.stop();
}

runBenchmark(main, cleanup, 'the api process and its database');
