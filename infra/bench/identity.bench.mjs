#!/usr/bin/env node
// Identity benchmark: `npm run bench:identity` (builds the server first).
//
// Runs the built api as its own process (full mode: DATABASE_URL on infra's PostgreSQL,
// projections in process, nothing else configured) and loads it from this process:
//   1. sign-ins: BENCH_SIGNIN_CONCURRENCY (10) clients signing in back to back for
//      BENCH_SECONDS (15): sign-ins/s and latency p50/p95/p99. Every sign-in verifies an
//      argon2id hash at the parameters in api/src/identity/infrastructure/password-hasher.ts
//      and appends a UserSignedIn event.
//   2. GET /api/v1/profile/ with a valid bearer token, BENCH_CONNECTIONS (100) connections,
//      BENCH_SECONDS: requests/s and p99. Each request verifies the token, checks its session
//      is still open, and reads the users read model (both cached in memory after the first
//      request, see api/src/identity/infrastructure/signed-in-users.ts). Again at a tenth
//      of the connections, for the latency without queueing.
//   baseline: GET /api/v1/health/ping, a plain Nest endpoint returning a constant, same load.
// Prints each line with its target and the profile/constant ratio. Stops the api, and the
// servers it started, when done, failed or interrupted.
import autocannon from 'autocannon';
import * as infra from '../lib/index.mjs';
import apiProcess from '@meshwork/testkit/api/api-process.cjs';
import { ownServers } from '../lib/own-servers.cjs';
import { runBenchmark } from './run-benchmark.mjs';

const seconds = Number(process.env.BENCH_SECONDS ?? 15);
const signinConcurrency = Number(process.env.BENCH_SIGNIN_CONCURRENCY ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 100);
const PASSWORD = 'Bench1Password';

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

const servers = ownServers(infra);
let api;

async function main() {
  await servers.start(['postgres']);
  api = await apiProcess.startApiProcess('bench_identity', process.env.DATABASE_URL ?? infra.env().DATABASE_URL, {
    AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
  });
  const { base } = api;
  const post = (p, body, headers = {}) =>
    fetch(`${base}${p}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  const accounts = [];
  for (let i = 0; i < signinConcurrency; i++) {
    const email = `bench${i}@example.com`;
    const response = await post('/register/', { email, username: `bench${i}`, password: PASSWORD, password_confirm: PASSWORD });
    if (response.status !== 201) throw new Error(`register: ${response.status} ${await response.text()}`);
    accounts.push({ email, token: (await response.json()).tokens.access });
  }

  // 1. Sign-ins.
  const latencies = [];
  let failures = 0;
  const deadline = Date.now() + seconds * 1000;
  await Promise.all(
    accounts.map(async ({ email }) => {
      while (Date.now() < deadline) {
        const started = performance.now();
        const response = await post('/login/', { email, password: PASSWORD });
        await response.arrayBuffer();
        if (response.status === 200) latencies.push(performance.now() - started);
        else failures += 1;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const signIns = {
    perSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    failures,
  };

  // 2. Profile vs the constant endpoint, same load.
  const load = (pathname, headers = {}, conns = connections) =>
    autocannon({ url: `${base}${pathname}`, connections: conns, duration: seconds, headers });
  await load('/health/ping'); // warm-up of the HTTP path
  const constant = await load('/health/ping');
  const profile = await load('/profile/', { authorization: `Bearer ${accounts[0].token}` });
  // The same call at a tenth of the connections: the server's own latency, with less queueing.
  const light = await load('/profile/', { authorization: `Bearer ${accounts[0].token}` }, Math.max(1, connections / 10));

  const ms = (v) => `${v.toFixed(1)} ms`;
  const rows = [
    ['sign-ins/s (argon2id m=19456 t=2 p=1), 10 concurrent', signIns.perSecond.toFixed(1), '', ''],
    [
      'sign-in latency p50 / p95 / p99',
      `${ms(signIns.p50)} / ${ms(signIns.p95)} / ${ms(signIns.p99)}`,
      'p95 < 250 ms',
      signIns.p95 < 250 ? 'PASS' : 'MISS',
    ],
    [`GET /health/ping req/s (constant), ${connections} conn`, constant.requests.average.toFixed(0), '', ''],
    [`GET /profile/ req/s, ${connections} conn`, profile.requests.average.toFixed(0), '', ''],
    [
      'profile / constant',
      (profile.requests.average / constant.requests.average).toFixed(2),
      '>= 0.6',
      profile.requests.average / constant.requests.average >= 0.6 ? 'PASS' : 'MISS',
    ],
    ['GET /profile/ latency p99', ms(profile.latency.p99), '< 10 ms', profile.latency.p99 < 10 ? 'PASS' : 'MISS'],
    ['GET /health/ping latency p99', ms(constant.latency.p99), '', ''],
    // Little's law: with N requests always in flight, mean latency = N / throughput. Below
    // 10 ms at 100 connections needs more than 10,000 req/s even from the constant endpoint.
    [`mean latency floor at ${connections} conn (N / req/s), constant`, ms((connections / constant.requests.average) * 1000), '', ''],
    [
      `GET /profile/ latency p50 / p99, ${Math.max(1, connections / 10)} conn`,
      `${ms(light.latency.p50)} / ${ms(light.latency.p99)}`,
      '',
      '',
    ],
    [
      'errors (sign-in failures, profile non-2xx)',
      `${signIns.failures}, ${profile.non2xx + profile.errors}`,
      '0',
      signIns.failures + profile.non2xx + profile.errors === 0 ? 'PASS' : 'MISS',
    ],
  ];
  const width = Math.max(...rows.map((r) => r[0].length));
  console.log(`\nIdentity benchmark (${seconds} s per line, ${new Date().toISOString()})`);
  for (const [line, value, target, verdict] of rows)
    console.log(`${line.padEnd(width)}  ${String(value).padStart(24)}  ${target.padEnd(12)} ${verdict}`);
}

async function cleanup() {
  try {
    await api?.stop();
  } finally {
    await servers.stop();
  }
}

await runBenchmark(main, cleanup, 'stopping the api and the servers this run started');
