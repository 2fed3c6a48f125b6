#!/usr/bin/env node
// Webhooks benchmark: `npm run bench:webhooks` (builds the server first).
//
// Runs the built api as its own process (full mode on infra's PostgreSQL, projections in
// process, any URL allowed for the loopback receiver) with BENCH_ENDPOINTS (100) Enterprise
// customers, one endpoint each, at a receiver in this process: BENCH_HANGING (10) of them
// never answer, BENCH_FAILING (10) answer 500, the rest answer 204 at once. BENCH_EVENTS
// (10,000) NetworkCreated events are appended to the log (the event store's own append, 20
// at a time, spread evenly over the customers), each becoming one delivery: all at once (a
// burst, the default), or BENCH_RATE a second. Prints, for the healthy endpoints, the delivery
// latency (event recorded in the log -> request at the receiver) p50/p99/max, how many events
// never arrived (lost) and how many arrived more than once (duplicates); the attempts the
// hanging and failing endpoints got; where the time went (log -> outbox, the projection;
// outbox -> first attempt, the sender) and the load average. Target: p99 < 2 s, nothing
// lost. Stops the api and drops its database when done, failed or interrupted.
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
let receiver;
let db;
const hanging = new Set();

async function main() {
  await servers.start(['postgres']);
  api = await apiProcess.startApiProcess('bench_webhooks', process.env.DATABASE_URL ?? infra.env().DATABASE_URL, {
    AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
    STRIPE_SECRET_KEY: '',
    STRIPE_API_BASE: '',
    STRIPE_WEBHOOK_SECRET: '',
    KAFKA_BROKERS: '',
    WEBHOOKS_ANY_URL: 'true',
    ...(process.env.BENCH_PROFILE ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${process.env.BENCH_PROFILE}` } : {}),
  });
  const { base } = api;

  // The receiver: path /<n>; arrivals by path and event id.
  const arrivals = new Map();
  receiver = http.createServer((request, response) => {
    const at = Date.now();
    const chunks = [];
    request.on('data', (c) => chunks.push(c));
    request.on('end', () => {
      const n = Number(request.url.slice(1));
      const eventId = request.headers['meshwork-event-id'];
      const list = arrivals.get(n) ?? new Map();
      arrivals.set(n, list);
      list.set(eventId, [...(list.get(eventId) ?? []), at]);
      if (n < HANGING) return hanging.add(response);
      response.writeHead(n < HANGING + FAILING ? 500 : 204).end();
    });
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverBase = `http://127.0.0.1:${receiver.address().port}`;

  process.stdout.write(`setting up ${ENDPOINTS} Enterprise customers with an endpoint each...`);
  const customers = Array.from({ length: ENDPOINTS }, (_, n) => ({ n }));
  await pool(10, customers, async (customer) => {
    const name = `wh${customer.n}_${randomUUID().slice(0, 6)}`;
    const registered = await registerOverHttp(base, name, PASSWORD);
    const token = registered.tokens.access;
    await subscribeOverHttp(base, token, 'enterprise');
    customer.endpointId = (
      await callApi(base, '/webhooks/endpoints/', token, { url: `${receiverBase}/${customer.n}`, event_types: ['network.created'] })
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
  if (lost > 0 || !(p99 < 2000)) process.exitCode = 1;
}

async function cleanup() {
  for (const response of hanging) response.destroy();
  receiver?.closeAllConnections();
  receiver?.close();
  await db?.end();
  await api?.stop();
  await servers.stop();
}

runBenchmark(main, cleanup, 'the api process and its database');
