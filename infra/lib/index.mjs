// Programmatic API over the loopback servers: what `infra/scripts/infra.mjs`
// and integration tests call.
//
//   await up()                      install (cached) + start all, wait until each answers
//   await up(['postgres', 'kafka']) only those
//   await down() / down(['minio'])  stop what infra started (pid files), wait for exit
//   await stop('minio')             one component (tests: outage mid-request)
//   await stop('minio', { kill: true })  SIGKILL instead of a clean shutdown
//   await start('minio')            bring it back, resolves when it answers again
//   await status()                  [{ name, state, pid, ports, ready, url }]
//   env()                           { DATABASE_URL, KAFKA_BROKERS, S3_*, STRIPE_*, SMTP_URL, MAIL_CAPTURE_URL }
//
// Every component module exports the same shape (see postgres.mjs): install,
// launch, probe, optional afterReady/external, stop signal and timeouts.
import fs from 'node:fs';
import { env, paths, ports } from './config.mjs';
import { portOpen, runningPid, stopPid, waitReady, withLock } from './proc.mjs';
import postgres from './postgres.mjs';
import kafka from './kafka.mjs';
import minio from './minio.mjs';
import stripe from './stripe.mjs';
import mail from './mail.mjs';

export { env, paths, ports };

const components = { postgres, kafka, minio, stripe, mail };

/** Component names in start order. */
export const names = Object.keys(components);

function pick(list) {
  const wanted = list == null || (Array.isArray(list) && list.length === 0) ? names : [list].flat();
  for (const n of wanted) {
    if (!components[n]) throw new Error(`unknown infra component "${n}" (known: ${names.join(', ')})`);
  }
  return wanted;
}

/**
 * Start one component (installing it first if needed) and resolve once it
 * really answers. A no-op (apart from the readiness check) if it already runs.
 * Returns { name, state, pid, started, ms }.
 */
export async function start(name) {
  const c = components[pick(name)[0]];
  const t = Date.now();
  const why = c.external();
  if (why) return { name, state: 'external', reason: why, started: false, ms: 0 };
  fs.mkdirSync(paths.logs, { recursive: true }); // installs log there before anything else creates it
  return withLock(name, async () => {
    let pid = runningPid(name);
    if (pid) {
      await waitReady(name, c.probe, { pid, timeoutMs: c.startTimeoutMs });
      return { name, state: 'running', pid, started: false, ms: Date.now() - t };
    }
    for (const port of c.ports()) {
      if (await portOpen(port)) {
        throw new Error(
          `${name}: 127.0.0.1:${port} is already taken by a process infra did not start ` +
            `(no live pid in ${paths.pidFile(name)}). Stop it, or move infra with the MESHWORK_*_PORT variables (infra/README.md).`,
        );
      }
    }
    await c.install();
    pid = await c.launch();
    try {
      await waitReady(name, c.probe, { pid, timeoutMs: c.startTimeoutMs });
      await c.afterReady?.();
    } catch (err) {
      // Do not leave a half-started server behind: the next `up` starts clean.
      await stopPid(pid, { signal: 'SIGKILL' });
      fs.rmSync(paths.pidFile(name), { force: true });
      throw err;
    }
    return { name, state: 'running', pid, started: true, ms: Date.now() - t };
  });
}

/**
 * Stop one component if infra started it; resolves after the process exited.
 * { kill: true } sends SIGKILL (a crash, for failure tests) instead of the
 * component's clean shutdown signal.
 */
export async function stop(name, { kill = false } = {}) {
  const c = components[pick(name)[0]];
  if (c.external()) return { name, state: 'external', result: 'left alone' };
  return withLock(name, async () => {
    const pid = runningPid(name);
    if (!pid) return { name, state: 'stopped', result: 'not running' };
    const result = await stopPid(pid, {
      signal: kill ? 'SIGKILL' : c.stopSignal,
      timeoutMs: c.stopTimeoutMs,
    });
    fs.rmSync(paths.pidFile(name), { force: true });
    return { name, state: 'stopped', pid, result };
  });
}

/** Write .infra/env.json so non-Node tools (and humans) can read the URLs. */
export function writeEnvFile() {
  fs.mkdirSync(paths.infra, { recursive: true });
  fs.writeFileSync(paths.envFile, JSON.stringify(env(), null, 2) + '\n');
  return paths.envFile;
}

/**
 * Start the named components (default: all) in parallel. Returns their start
 * results; rejects (after all settled) if any failed. `onResult(result|error)`
 * reports each one as soon as it is done (a MinIO build can take minutes).
 */
export async function up(list, { onResult } = {}) {
  writeEnvFile();
  const settled = await Promise.allSettled(
    pick(list).map((n) =>
      start(n).then(
        (r) => (onResult?.(r), r),
        (err) => {
          onResult?.(Object.assign(err, { component: n }));
          throw err;
        },
      ),
    ),
  );
  const failed = settled.filter((s) => s.status === 'rejected');
  if (failed.length) {
    const err = new Error(`infra up failed:\n${failed.map((f) => f.reason?.message ?? f.reason).join('\n\n')}`);
    err.results = settled.map((s) => s.value).filter(Boolean);
    throw err;
  }
  return settled.map((s) => s.value);
}

/** Stop the named components (default: all). */
export async function down(list) {
  return Promise.all(pick(list).map((n) => stop(n)));
}

/** One record per component; `ready` is a live probe, not just "pid exists". */
export async function status(list) {
  return Promise.all(
    pick(list).map(async (name) => {
      const c = components[name];
      const rec = { name, state: 'stopped', pid: null, ports: c.ports(), url: c.url(), ready: false };
      const why = c.external();
      if (why) return { ...rec, state: 'external', reason: why, ports: [], url: process.env.DATABASE_URL };
      rec.pid = runningPid(name);
      if (rec.pid) rec.state = 'running';
      rec.ready = await Promise.resolve()
        .then(() => c.probe())
        .then(Boolean, () => false);
      if (!rec.pid && rec.ready) rec.state = 'foreign'; // something else answers on our port
      return rec;
    }),
  );
}

/** True when the component answers right now. */
export async function isReady(name) {
  return components[pick(name)[0]].probe().then(Boolean, () => false);
}
