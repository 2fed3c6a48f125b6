// The built api as a process of its own: how `npm start`, the benchmarks and the tests that
// measure the process start it. CommonJS, so the ESM scripts and the Jest (CommonJS) tests
// can both load it. It lives in the testkit, not infra/lib: the api's own tests load it and
// nothing below infra may import infra, while infra's scripts sit above the testkit.
const { spawn } = require('node:child_process');
const { createHash, randomBytes } = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const path = require('node:path');
const { Readable } = require('node:stream');
const pg = require('pg');
const { minioClient, removeBucket } = require('./object-store.cjs');

const root = path.resolve(__dirname, '../../..');

/**
 * V8 settings the api runs with. A young generation of 1 MiB per semi-space (V8 grows it to
 * 32 MiB by default) keeps minor collections frequent: a streamed upload's socket buffers
 * die young and are freed at once rather than piling up as external memory until a major
 * collection, which is what keeps a 2 GiB upload under 200 MB (docs/benchmarks.md).
 */
const API_NODE_FLAGS = ['--max-semi-space-size=1'];

/** Spawns dist/api/src/main.js with the api's V8 settings. */
function spawnApi(env, stdio) {
  return spawn(process.execPath, [...API_NODE_FLAGS, path.join(root, 'dist/api/src/main.js')], { cwd: root, env, stdio });
}

const freePort = () =>
  new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/**
 * Starts the built api (full mode) on a database of its own, made on the PostgreSQL server
 * of `databaseUrl` and a bucket of its own (unless `settings` names one), with `settings` added
 * to the environment, and waits until it answers. `stop()` ends it, drops the database and
 * removes the bucket; `tool()` runs one of the api's built
 * command-line tools against the same database.
 */
async function startApiProcess(name, databaseUrl, settings = {}) {
  const database = `${name}_${Date.now()}`.replace(/[^a-z0-9_]/gi, '_').toLowerCase();
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const url = new URL(databaseUrl);
  url.pathname = `/${database}`;
  const port = await freePort();
  // Objects go to a bucket of the process's own, removed with its database (unless the caller names one).
  const ownBucket = settings.S3_BUCKET === undefined ? database.replace(/_/g, '-') : null;
  const appEnv = {
    ...process.env,
    DATABASE_URL: url.toString(),
    LOG_LEVEL: 'warn',
    DATA_DIR: path.join(root, '.infra', `process-${database}`),
    ...(ownBucket ? { S3_BUCKET: ownBucket } : {}),
  };
  const api = spawnApi({ ...appEnv, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, ...settings }, [
    'ignore',
    'ignore',
    'inherit',
  ]);
  const base = `http://127.0.0.1:${port}/api/v1`;
  const stop = async () => {
    if (api.exitCode === null && api.signalCode === null) {
      api.kill('SIGTERM');
      await new Promise((r) => api.once('exit', r));
    }
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
    if (ownBucket) await removeBucket(minioClient(), ownBucket);
    fs.rmSync(appEnv.DATA_DIR, { recursive: true, force: true });
  };
  try {
    for (
      let i = 0;
      !(await fetch(`${base}/health/ping`).then(
        (r) => r.ok,
        () => false,
      ));
      i++
    ) {
      if (api.exitCode !== null || i > 300) throw new Error('api did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const tool = (script, args) =>
    new Promise((resolve, reject) =>
      spawn(process.execPath, [path.join(root, 'dist/api/src', script), ...args], { env: appEnv, stdio: 'inherit' }).on('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`${script} exited ${code}`)),
      ),
    );
  /** A signed-in staff member's access token, made the way an operator makes the first one. */
  const staffToken = async () => {
    const staff = { email: `staff-${Date.now()}@example.com`, password: 'Staff1Password' };
    await tool('cli/create-staff.main.js', ['--email', staff.email, '--password', staff.password]);
    const login = await fetch(`${base}/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(staff),
    });
    return (await login.json()).tokens.access;
  };
  // databaseUrl: the api's own database, for a benchmark that reads its event log's timestamps.
  return { base, pid: api.pid, databaseUrl: url.toString(), tool, staffToken, stop };
}

/** Starts the process's peak-RSS count afresh (Linux): what follows is measured alone. */
function resetPeakRss(pid) {
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/** The process's resident memory now, in bytes (what resetPeakRss starts the peak from). */
function residentRss(pid) {
  return Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
}

/** The process's peak resident memory in bytes since start or resetPeakRss. */
function peakRss(pid) {
  return Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
}

/** A file of `size` bytes made of one random block repeated: the same bytes on every read. */
function generatedFile(size) {
  const block = randomBytes(4 * 1024 * 1024);
  function* chunks() {
    for (let sent = 0; sent < size; sent += block.length) yield block.subarray(0, Math.min(block.length, size - sent));
  }
  const hash = createHash('sha256');
  for (const chunk of chunks()) hash.update(chunk);
  return { size, chunks, sha256: hash.digest('hex') };
}

/**
 * POSTs a one-file model to /models/admin/upload/ as staff, streaming the generated file:
 * resolves with the answer's status and body.
 */
function uploadModel(base, token, name, fileName, file) {
  const boundary = `----meshwork${Date.now()}`;
  const fields = {
    name,
    display_name: name,
    version: '1.0.0',
    allowed_plans: '["pro"]',
    checksums: JSON.stringify({ [fileName]: file.sha256 }),
  };
  const head =
    Object.entries(fields)
      .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join('') +
    `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const url = new URL(`${base}/models/admin/upload/`);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': `multipart/form-data; boundary=${boundary}`,
          'Content-Length': Buffer.byteLength(head) + file.size + Buffer.byteLength(tail),
        },
      },
      (response) => {
        const body = [];
        response.on('data', (c) => body.push(c));
        response.on('end', () => resolve({ status: response.statusCode, body: JSON.parse(Buffer.concat(body).toString() || 'null') }));
      },
    );
    request.on('error', reject);
    request.write(head);
    Readable.from(file.chunks())
      .on('end', () => request.end(tail))
      .pipe(request, { end: false });
  });
}

module.exports = { API_NODE_FLAGS, spawnApi, startApiProcess, resetPeakRss, residentRss, peakRss, freePort, generatedFile, uploadModel };
