#!/usr/bin/env node
// Storage benchmark: `npm run bench:storage` (builds the server first).
//
// Runs the built api as its own process (full mode, infra's PostgreSQL and MinIO) and
//   1. uploads one generated file of BENCH_STORAGE_BYTES (1 GiB) through
//      POST /api/v1/models/admin/upload/ (streamed to MinIO, SHA-256 checked): MB/s, and the
//      api's peak RSS (VmHWM) during it;
//   baseline: the same bytes uploaded straight to MinIO with the `minio` client
//      (putObject from a stream), in the same run: the ratio is the api's overhead;
//   2. downloads the model's file through its presigned URL: MB/s.
// Prints each line with its target. Stops the api, and the servers it started, when done,
// failed or interrupted.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { Client } from 'minio';
import * as infra from '../lib/index.mjs';
import apiProcess from '@meshwork/testkit/api/api-process.cjs';
import { ownServers } from '../lib/own-servers.cjs';
import { runBenchmark } from './run-benchmark.mjs';

const size = Number(process.env.BENCH_STORAGE_BYTES ?? 1024 ** 3);

const servers = ownServers(infra);
let api;
let minio;

async function main() {
  await servers.start(['postgres', 'minio']);
  const e = infra.env();
  const file = apiProcess.generatedFile(size);
  api = await apiProcess.startApiProcess('bench_storage', process.env.DATABASE_URL ?? e.DATABASE_URL, {
    S3_ENDPOINT: e.S3_ENDPOINT,
    S3_ACCESS_KEY: e.S3_ACCESS_KEY,
    S3_SECRET_KEY: e.S3_SECRET_KEY,
    S3_BUCKET: 'meshwork-bench',
  });
  const base = api.base;
  minio = new Client({
    endPoint: '127.0.0.1',
    port: Number(new URL(e.S3_ENDPOINT).port),
    useSSL: false,
    accessKey: e.S3_ACCESS_KEY,
    secretKey: e.S3_SECRET_KEY,
  });
  const token = await api.staffToken();
  const rssBefore = apiProcess.peakRss(api.pid);
  apiProcess.resetPeakRss(api.pid); // the peak from here on: the upload's, not start-up's
  let started = performance.now();
  const { status, body: uploaded } = await apiProcess.uploadModel(base, token, `bench_${Date.now()}`, 'bench.bin', file);
  if (status !== 201) throw new Error(`upload answered ${status}: ${JSON.stringify(uploaded)}`);
  const apiSeconds = (performance.now() - started) / 1000;
  const rssPeak = apiProcess.peakRss(api.pid);

  if (!(await minio.bucketExists('meshwork-bench'))) await minio.makeBucket('meshwork-bench');
  started = performance.now();
  await minio.putObject('meshwork-bench', `direct/${Date.now()}.bin`, Readable.from(file.chunks()), size, {
    'Content-Type': 'application/octet-stream',
  });
  const directSeconds = (performance.now() - started) / 1000;

  // Download through the presigned URL, as a desktop host does (staff's plan: make it Pro's model for free users too).
  await fetch(`${base}/models/admin/${uploaded.model_id}/access/`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ allowed_plans: ['free', 'pro', 'enterprise'] }),
  });
  const link = await (
    await fetch(`${base}/models/${uploaded.model_name}/files/bench.bin/download/`, { headers: { Authorization: `Bearer ${token}` } })
  ).json();
  started = performance.now();
  const hash = createHash('sha256');
  for await (const chunk of (await fetch(link.url)).body) hash.update(chunk);
  const downloadSeconds = (performance.now() - started) / 1000;
  if (hash.digest('hex') !== file.sha256) throw new Error('downloaded bytes differ');

  const mbps = (seconds) => (size / 1024 / 1024 / seconds).toFixed(0);
  const ratio = directSeconds / apiSeconds;
  const rows = [
    [`upload through the api (${(size / 1024 ** 3).toFixed(2)} GiB, SHA-256 checked), MB/s`, mbps(apiSeconds), '', ''],
    ['upload straight to MinIO (minio client), MB/s', mbps(directSeconds), '', ''],
    ['api / direct', ratio.toFixed(2), '>= 0.8', ratio >= 0.8 ? 'PASS' : 'MISS'],
    ['api peak RSS during the upload, MB', (rssPeak / 1024 / 1024).toFixed(0), '< 200', rssPeak < 200 * 1024 * 1024 ? 'PASS' : 'MISS'],
    ['api peak RSS from start-up to before it, MB', (rssBefore / 1024 / 1024).toFixed(0), '', ''],
    ['download by presigned URL (verified), MB/s', mbps(downloadSeconds), '', ''],
  ];
  const width = Math.max(...rows.map((r) => r[0].length));
  console.log(`\nStorage benchmark (${new Date().toISOString()})`);
  for (const [line, value, target, verdict] of rows)
    console.log(`${line.padEnd(width)}  ${String(value).padStart(10)}  ${target.padEnd(8)} ${verdict}`);
}

async function cleanup() {
  try {
    await api?.stop();
    // The uploaded bytes would otherwise stay in MinIO's data, a GiB per run.
    if (await minio?.bucketExists('meshwork-bench'))
      for await (const item of minio.listObjectsV2('meshwork-bench', '', true)) await minio.removeObject('meshwork-bench', item.name);
  } finally {
    await servers.stop();
  }
}

await runBenchmark(main, cleanup, 'stopping the api, deleting its uploads, stopping the servers this run started');
