import type { Pool } from 'pg';

/** One schema change. Ids are applied once each, in the order given, and never edited. */
export interface Migration {
  id: string;
  sql: string;
}

/** Any constant works; all processes just have to agree on it. */
const MIGRATION_LOCK = 4_242_001;

/**
 * Applies the migrations not applied yet. Several processes may start at once (api
 * instances, projection workers): an advisory lock makes them take turns.
 */
export async function migrate(pool: Pool, migrations: readonly Migration[]): Promise<string[]> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const { rows } = await client.query<{ id: string }>('SELECT id FROM schema_migrations');
    const done = new Set(rows.map((r) => r.id));
    const applied: string[] = [];
    for (const migration of migrations) {
      if (done.has(migration.id)) continue;
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query('INSERT INTO schema_migrations (id) VALUES ($1)', [migration.id]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`Migration ${migration.id} failed: ${(error as Error).message}`);
      }
      applied.push(migration.id);
    }
    return applied;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    client.release();
  }
}
