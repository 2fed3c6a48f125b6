// Process plumbing shared by every component: detached spawning, pid files,
// liveness, stopping, locking, waiting, port probes.
//
// WHY detached + pid files: the servers must outlive the `infra up` command
// (a developer runs it once, then works for hours), and `down` must stop only
// what infra itself started, never an unrelated process that happens to use
// the port. The pid file records the pid AND a marker expected in its command
// line, so a pid reused by the OS after a reboot is not mistaken for ours.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { paths } from './config.mjs';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** True when `pid` is a live (non-zombie) process. */
export function isAlive(pid) {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: exists but not ours to signal; still alive.
    return err.code === 'EPERM';
  }
  try {
    // A zombie answers kill(0) but is dead for our purposes.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true; // no /proc (macOS): trust kill(0)
  }
}

function cmdline(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return null;
  }
}

export function readPid(name) {
  try {
    return JSON.parse(fs.readFileSync(paths.pidFile(name), 'utf8'));
  } catch {
    return null;
  }
}

/** The pid of our running server `name`, or null (clears a stale pid file). */
export function runningPid(name) {
  const rec = readPid(name);
  if (!rec) return null;
  const cl = cmdline(rec.pid);
  if (isAlive(rec.pid) && (cl === null || cl.includes(rec.marker))) return rec.pid;
  fs.rmSync(paths.pidFile(name), { force: true });
  return null;
}

/**
 * Start `command args` in its own process group, stdout+stderr appended to
 * .infra/logs/<name>.log, and record it in .infra/<name>.pid.
 * `marker` must appear in the process's command line (see runningPid).
 */
export function spawnDetached(name, command, args, { env, cwd, uid, gid, marker }) {
  fs.mkdirSync(paths.logs, { recursive: true });
  const log = fs.openSync(paths.log(name), 'a');
  fs.writeSync(log, `\n=== ${new Date().toISOString()} infra start ${name}: ${command} ${args.join(' ')}\n`);
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    uid,
    gid,
    detached: true, // own process group: Ctrl-C in the caller's terminal does not reach it
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  child.on('error', () => {}); // surfaced by waitReady noticing the death
  child.unref();
  fs.writeFileSync(paths.pidFile(name), JSON.stringify({ pid: child.pid, marker, command, startedAt: Date.now() }));
  return child.pid;
}

/** True while any process of group `pgid` exists (zombies included). */
function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/**
 * Send `signal`, wait for exit, SIGKILL after `timeoutMs`. Returns how it ended.
 * SIGKILL goes to the whole process group (spawnDetached made the server its
 * leader): a killed PostgreSQL postmaster would otherwise leave its backends
 * running and the next start would refuse the still-attached shared memory.
 */
export async function stopPid(pid, { signal = 'SIGTERM', timeoutMs = 30000 } = {}) {
  if (!isAlive(pid)) return 'not running';
  const killGroup = async () => {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      try {
        process.kill(pid, 'SIGKILL'); // not a group leader
      } catch {
        // already gone
      }
    }
    const until = Date.now() + 5000;
    while ((isAlive(pid) || groupAlive(pid)) && Date.now() < until) await sleep(50);
  };
  if (signal === 'SIGKILL') {
    await killGroup();
    return 'killed';
  }
  try {
    process.kill(pid, signal);
  } catch {
    return 'not running';
  }
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return 'stopped';
    await sleep(100);
  }
  await killGroup();
  return 'killed after timeout';
}

/** Resolves true when something accepts TCP connections on host:port. */
export function portOpen(port, host = '127.0.0.1', timeoutMs = 500) {
  return new Promise((resolve) => {
    const s = net.connect({ port, host });
    const done = (v) => {
      s.destroy();
      resolve(v);
    };
    s.setTimeout(timeoutMs, () => done(false));
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}

/**
 * Poll `probe` until it resolves truthy. Fails early if the process `pid`
 * died (and shows the end of its log), or after `timeoutMs`.
 */
export async function waitReady(name, probe, { pid, timeoutMs }) {
  const deadline = Date.now() + timeoutMs;
  let lastErr;
  while (Date.now() < deadline) {
    try {
      if (await probe()) return;
    } catch (err) {
      lastErr = err;
    }
    if (pid && !isAlive(pid)) {
      throw new Error(`${name} exited during startup. Last log lines:\n${logTail(name)}`);
    }
    await sleep(250);
  }
  throw new Error(
    `${name} did not become ready within ${timeoutMs / 1000}s (${lastErr?.message ?? 'no answer'}). Last log lines:\n${logTail(name)}`,
  );
}

export function logTail(name, lines = 25) {
  try {
    return fs.readFileSync(paths.log(name), 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

const inProcess = new Map(); // name -> tail of the promise chain

/**
 * Mutex per component so two `up` calls — two terminals, parallel test
 * workers, or two calls in one process — never start the same server twice.
 * Across processes it is a directory (mkdir is atomic) holding the owner's
 * pid; a lock whose owner died is taken over.
 */
export function withLock(name, fn, opts) {
  const prev = inProcess.get(name) ?? Promise.resolve();
  const next = prev.catch(() => {}).then(() => withFileLock(name, fn, opts));
  inProcess.set(name, next);
  return next;
}

async function withFileLock(name, fn, { timeoutMs = 30 * 60 * 1000 } = {}) {
  fs.mkdirSync(paths.infra, { recursive: true });
  const dir = paths.lockDir(name);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      fs.mkdirSync(dir);
      fs.writeFileSync(`${dir}/owner`, String(process.pid));
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    }
    let owner = 0;
    let age = 0;
    try {
      age = Date.now() - fs.statSync(dir).mtimeMs;
      owner = Number(fs.readFileSync(`${dir}/owner`, 'utf8')) || 0;
    } catch {
      // released meanwhile, or owner not written yet
    }
    // Owner dead, or it crashed between mkdir and writing its pid.
    if ((owner && !isAlive(owner)) || (!owner && age > 5000)) {
      fs.rmSync(dir, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for lock ${dir} (held by pid ${owner})`);
    await sleep(200);
  }
  try {
    return await fn();
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

/** Run a command to completion (installs), output appended to `logFile`. */
export function run(command, args, { env, cwd, logFile } = {}) {
  if (logFile) fs.mkdirSync(path.dirname(logFile), { recursive: true });
  return new Promise((resolve, reject) => {
    const out = logFile ? fs.openSync(logFile, 'a') : 'ignore';
    if (logFile) fs.writeSync(out, `\n=== ${new Date().toISOString()} ${command} ${args.join(' ')}\n`);
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', out, out] });
    if (logFile) fs.closeSync(out);
    child.on('error', (err) => reject(new Error(`${command}: ${err.message}`)));
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited ${code}${logFile ? `; see ${logFile}` : ''}`)),
    );
  });
}
