// The built api as its own process on a database of its own, for the benchmarks.
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { env } from '../lib/index.mjs';

export const root = path.resolve(import.meta.dirname, '../..');

export const freePort = () =>
  new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/**
 * Starts dist/api/src/main.js (full mode, infra's PostgreSQL) with `settings` added to its
 * environment, and waits until it answers. `stop()` ends it and drops its database.
 */
export async function startBenchApi(name, settings = {}) {
  const serverUrl = process.env.DATABASE_URL ?? env().DATABASE_URL;
  const database = `bench_${name}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  const port = await freePort();
  const dataDir = path.join(root, '.infra', `bench-${name}`);
  const appEnv = { ...process.env, DATABASE_URL: url.toString(), LOG_LEVEL: 'warn', DATA_DIR: dataDir };
  const api = spawn(process.execPath, [path.join(root, 'dist/api/src/main.js')], {
    env: { ...appEnv, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, ...settings },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}/api/v1`;
  const stop = async () => {
    api.kill('SIGTERM');
    await new Promise((r) => api.once('exit', r));
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
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
      if (i > 300) throw new Error('api did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  /** Runs one of the api's built command-line tools against the same database. */
  const tool = (script, args) =>
    new Promise((resolve, reject) =>
      spawn(process.execPath, [path.join(root, 'dist/api/src', script), ...args], { env: appEnv, stdio: 'inherit' }).on('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`${script} exited ${code}`)),
      ),
    );
  return { base, pid: api.pid, tool, stop };
}
