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
// Prints each line with its target.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { Readable } from 'node:stream';
import { Client } from 'minio';
import { env, up } from '../lib/index.mjs';
import { startBenchApi } from './bench-api.mjs';

const size = Number(process.env.BENCH_STORAGE_BYTES ?? 1024 ** 3);
const CHUNK = randomBytes(4 * 1024 * 1024);

/** The generated file's bytes, as a stream: the same bytes every time. */
function* chunks() {
  for (let sent = 0; sent < size; sent += CHUNK.length) yield CHUNK.subarray(0, Math.min(CHUNK.length, size - sent));
}
const fileHash = (() => {
  const hash = createHash('sha256');
  for (const chunk of chunks()) hash.update(chunk);
  return hash.digest('hex');
})();

function peakRss(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)[1]) * 1024;
}

/** POSTs the multipart form over a raw request, streaming the generated file. */
function uploadThroughApi(base, token, name) {
  const boundary = `----bench${Date.now()}`;
  const fields = {
    name,
    display_name: 'Bench model',
    version: '1.0.0',
    allowed_plans: '["pro"]',
    checksums: JSON.stringify({ 'bench.bin': fileHash }),
  };
  const head =
    Object.entries(fields)
      .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join('') +
    `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="bench.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const url = new URL(`${base}/models/admin/upload/`);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': `multipart/form-data; boundary=${boundary}`,
          'Content-Length': Buffer.byteLength(head) + size + Buffer.byteLength(tail),
        },
      },
      (response) => {
        const body = [];
        response.on('data', (c) => body.push(c));
        response.on('end', () =>
          response.statusCode === 201
            ? resolve(JSON.parse(Buffer.concat(body)))
            : reject(new Error(`${response.statusCode} ${Buffer.concat(body)}`)),
        );
      },
    );
    request.on('error', reject);
    request.write(head);
    Readable.from(chunks())
      .on('end', () => request.end(tail))
      .pipe(request, { end: false });
  });
}

async function main() {
  await up(['postgres', 'minio']);
  const e = env();
  const api = await startBenchApi('storage', {
    S3_ENDPOINT: e.S3_ENDPOINT,
    S3_ACCESS_KEY: e.S3_ACCESS_KEY,
    S3_SECRET_KEY: e.S3_SECRET_KEY,
    S3_BUCKET: 'meshwork-bench',
  });
  const base = api.base;
  const minio = new Client({
    endPoint: '127.0.0.1',
    port: Number(new URL(e.S3_ENDPOINT).port),
    useSSL: false,
    accessKey: e.S3_ACCESS_KEY,
    secretKey: e.S3_SECRET_KEY,
  });
  try {
    // A staff account, made the way an operator makes the first one.
    const staff = { email: `bench-${Date.now()}@example.com`, password: 'Bench1Password' };
    await api.tool('identity/create-staff.main.js', ['--email', staff.email, '--password', staff.password]);
    const login = await fetch(`${base}/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(staff),
    });
    const token = (await login.json()).tokens.access;

    const rssBefore = peakRss(api.pid);
    let started = performance.now();
    const uploaded = await uploadThroughApi(base, token, `bench_${Date.now()}`);
    const apiSeconds = (performance.now() - started) / 1000;
    const rssPeak = peakRss(api.pid);

    if (!(await minio.bucketExists('meshwork-bench'))) await minio.makeBucket('meshwork-bench');
    started = performance.now();
    await minio.putObject('meshwork-bench', `direct/${Date.now()}.bin`, Readable.from(chunks()), size, {
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
    if (hash.digest('hex') !== fileHash) throw new Error('downloaded bytes differ');

    const mbps = (seconds) => (size / 1024 / 1024 / seconds).toFixed(0);
    const ratio = directSeconds / apiSeconds;
    const rows = [
      [`upload through the api (${(size / 1024 ** 3).toFixed(2)} GiB, SHA-256 checked), MB/s`, mbps(apiSeconds), '', ''],
      ['upload straight to MinIO (minio client), MB/s', mbps(directSeconds), '', ''],
      ['api / direct', ratio.toFixed(2), '>= 0.8', ratio >= 0.8 ? 'PASS' : 'MISS'],
      ['api peak RSS during the upload, MB', (rssPeak / 1024 / 1024).toFixed(0), '< 200', rssPeak < 200 * 1024 * 1024 ? 'PASS' : 'MISS'],
      ['api peak RSS before it, MB', (rssBefore / 1024 / 1024).toFixed(0), '', ''],
      ['download by presigned URL (verified), MB/s', mbps(downloadSeconds), '', ''],
    ];
    const width = Math.max(...rows.map((r) => r[0].length));
    console.log(`\nStorage benchmark (${new Date().toISOString()})`);
    for (const [line, value, target, verdict] of rows)
      console.log(`${line.padEnd(width)}  ${String(value).padStart(10)}  ${target.padEnd(8)} ${verdict}`);
  } finally {
    await api.stop();
    for await (const item of minio.listObjectsV2('meshwork-bench', '', true)) await minio.removeObject('meshwork-bench', item.name);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
