import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import type { Migration } from '../../../api/src/platform/database/migrations';
import { migrate } from '../../../api/src/platform/database/migrations';

export interface TestDatabase {
  url: string;
  pool: Pool;
  drop(): Promise<void>;
}

/** The server the integration tests use; `npm test` starts it (infra/) and sets DATABASE_URL. */
export function serverUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) {
    throw new Error('DATABASE_URL is not set. Run the tests with `npm test`, which starts PostgreSQL on loopback (infra/).');
  }
  return url;
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

const templates = new Map<string, Promise<string>>();

/**
 * A fresh, migrated database of its own for one test. Databases are copied from a
 * migrated template (made once per schema per worker), which takes milliseconds.
 */
export async function createTestDatabase(migrations: readonly Migration[], poolSize = 10): Promise<TestDatabase> {
  const admin = new Pool({ connectionString: serverUrl(), max: 1 });
  try {
    const key = migrations.map((m) => m.id).join(',');
    let template = templates.get(key);
    if (!template) {
      template = makeTemplate(admin, migrations);
      templates.set(key, template);
    }
    const name = `test_${randomUUID().replaceAll('-', '')}`;
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${await template}`);
    const url = withDatabase(serverUrl(), name);
    const pool = new Pool({ connectionString: url, max: poolSize });
    // Dropping the database ends any connection still open to it; that is expected here.
    pool.on('error', () => undefined);
    return {
      url,
      pool,
      async drop() {
        await pool.end();
        const cleanup = new Pool({ connectionString: serverUrl(), max: 1 });
        await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).finally(() => cleanup.end());
      },
    };
  } finally {
    await admin.end();
  }
}

async function makeTemplate(admin: Pool, migrations: readonly Migration[]): Promise<string> {
  const name = `template_${randomUUID().replaceAll('-', '')}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const pool = new Pool({ connectionString: withDatabase(serverUrl(), name), max: 1 });
  try {
    await migrate(pool, migrations);
  } finally {
    await pool.end();
  }
  return name;
}
