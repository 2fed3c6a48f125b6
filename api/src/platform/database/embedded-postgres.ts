import fs from 'node:fs';
import path from 'node:path';
import { Client, type Pool } from 'pg';
import type { AppConfig } from '../config/config';
import { logger } from '../logging/logger';
import { EMBEDDED_PASSWORD, EMBEDDED_USER, EmbeddedCluster } from './embedded-cluster';
import { clearOwner, isRunning, isThisProcess, type ProcessId, processId, readOwner, writeOwner } from './embedded-owner';

/** Every Meshwork connection says which process it is (pg_stat_activity): how an owner finds an heir. */
export const applicationName = () => `meshwork:${process.pid}`;

export const embeddedUrl = (config: AppConfig, database = 'meshwork') =>
  `postgres://${EMBEDDED_USER}:${EMBEDDED_PASSWORD}@127.0.0.1:${config.EMBEDDED_POSTGRES_PORT}/${database}`;

/**
 * The settings that reach DATA_DIR's embedded PostgreSQL. A folder has one server: when it
 * already runs on another port than EMBEDDED_POSTGRES_PORT (an api started with
 * EMBEDDED_POSTGRES_PORT=55432, then `npm run create-staff` without it), that port is the one,
 * and the log says so. Starting a second server on the folder could only fail ("postmaster.pid
 * already exists"), after a 30-second wait for an answer on the wrong port.
 */
export function embeddedSettings(config: AppConfig): AppConfig {
  const running = new EmbeddedCluster(config).running();
  if (!running || running.port === config.EMBEDDED_POSTGRES_PORT) return config;
  logger.warn(
    { port: running.port, configured: config.EMBEDDED_POSTGRES_PORT, postmaster: running.pid },
    `the embedded PostgreSQL of ${config.dataDir} runs on port ${running.port}, not EMBEDDED_POSTGRES_PORT ${config.EMBEDDED_POSTGRES_PORT}: using port ${running.port}`,
  );
  return { ...config, EMBEDDED_POSTGRES_PORT: running.port };
}

/**
 * Joins the embedded PostgreSQL of DATA_DIR, which is owned by one process at a time: the
 * one named in DATA_DIR/postgres.owner.json (pid and start time), and only it stops it.
 * - Not running: this process claims it, then starts it.
 * - Running, its owner alive (an api while a rebuild runs): shared, never stopped from here.
 * - Running, its owner dead (kill -9, a crash): taken over as it is, and stopped on leaving.
 * `leave()`, once this process's pool has ended, stops it if this process owns it then, or
 * hands it to another Meshwork process still connected.
 */
export async function joinEmbeddedPostgres(config: AppConfig, pool: Pool): Promise<{ leave(): Promise<void> }> {
  const cluster = new EmbeddedCluster(config);
  fs.mkdirSync(config.dataDir, { recursive: true });
  if (await answers(pool)) {
    await assertServedFrom(pool, config, cluster);
    const owner = readOwner(config.dataDir);
    if (owner && isRunning(owner)) {
      logger.info({ owner: owner.pid }, 'sharing the embedded PostgreSQL owned by a running Meshwork process');
    } else {
      writeOwner(config.dataDir, processId());
      logger.warn({ previousOwner: owner?.pid ?? null }, 'took over the embedded PostgreSQL left running by a process that ended');
    }
  } else {
    // Claimed before starting: a process arriving meanwhile finds an owner alive.
    const previous = readOwner(config.dataDir);
    writeOwner(config.dataDir, processId());
    try {
      await cluster.start();
    } catch (error) {
      // Another process started it a moment ago (its postmaster holds the folder)? Then it
      // answers shortly; the record names whoever wrote last, and only that one stops it.
      if (cluster.postmasterPid() === null || !(await answersWithin(pool, 30_000))) {
        if (isThisProcess(readOwner(config.dataDir))) {
          if (previous) writeOwner(config.dataDir, previous);
          else clearOwner(config.dataDir);
        }
        throw error;
      }
    }
    await ensureDatabase(config);
  }
  return { leave: () => leave(config, cluster) };
}

async function leave(config: AppConfig, cluster: EmbeddedCluster): Promise<void> {
  if (!isThisProcess(readOwner(config.dataDir))) return;
  const heir = await anotherMeshworkProcess(config);
  if (heir) {
    writeOwner(config.dataDir, heir);
    logger.info({ heir: heir.pid }, 'left the embedded PostgreSQL running for another Meshwork process, which now owns it');
    return;
  }
  await cluster.stop();
  clearOwner(config.dataDir);
}

const answers = (pool: Pool) =>
  pool.query('SELECT 1').then(
    () => true,
    () => false,
  );

async function answersWithin(pool: Pool, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
    if (await answers(pool)) return true;
  }
  return false;
}

/**
 * The server on our port must be the one of our folder: two checkouts left on the default
 * port would otherwise share one database without a word.
 */
async function assertServedFrom(pool: Pool, config: AppConfig, cluster: EmbeddedCluster): Promise<void> {
  const { rows } = await pool.query<{ data_directory: string }>('SHOW data_directory');
  const served = rows[0]!.data_directory;
  if (realPath(served) !== realPath(cluster.databaseDir)) {
    throw new Error(
      `EMBEDDED_POSTGRES_PORT ${config.EMBEDDED_POSTGRES_PORT} is taken by the embedded PostgreSQL of another data folder (${served}). ` +
        'Set EMBEDDED_POSTGRES_PORT to a free port, or DATA_DIR to that folder.',
    );
  }
}

function realPath(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

/** The database exists once the server does (a first start may have stopped in between). */
async function ensureDatabase(config: AppConfig): Promise<void> {
  const client = new Client({ connectionString: embeddedUrl(config, 'postgres'), application_name: applicationName() });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = 'meshwork'");
    // 42P04: another process starting at the same moment made it first.
    if (!rowCount)
      await client.query('CREATE DATABASE meshwork').catch((error: { code?: string }) => {
        if (error.code !== '42P04') throw error;
      });
  } finally {
    await client.end();
  }
}

/** A running Meshwork process other than this one with a connection open now, if any. */
async function anotherMeshworkProcess(config: AppConfig): Promise<ProcessId | null> {
  const client = new Client({ connectionString: embeddedUrl(config), application_name: applicationName() });
  try {
    await client.connect();
    const { rows } = await client.query<{ pid: string }>(
      "SELECT DISTINCT substr(application_name, 10) AS pid FROM pg_stat_activity WHERE application_name ~ '^meshwork:[0-9]+$'",
    );
    const others = rows.map((row) => processId(Number(row.pid))).filter((p) => p.pid !== process.pid && isRunning(p));
    return others[0] ?? null;
  } catch {
    return null; // nobody to ask: nobody to hand over to
  } finally {
    await client.end().catch(() => undefined);
  }
}
