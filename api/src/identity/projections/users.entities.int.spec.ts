import { createEntityTables } from '../../platform/database/read-side';
import { createTestDatabase, type TestDatabase } from '../../platform/testing/test-database';
import { USERS_ENTITIES } from './users.entities';

/** The tables as they were written by hand before the entities described them (users read model version 2). */
const HAND_WRITTEN = [
  'free_plan.max_clients double precision NOT NULL',
  'model_access.downloadable boolean NOT NULL false',
  'model_access.model_id text NOT NULL',
  'model_access.name text NOT NULL',
  'model_access.plans jsonb NOT NULL',
  'users.created_at timestamp with time zone NOT NULL',
  'users.email text',
  'users.entitled boolean NOT NULL false',
  "users.first_name text NOT NULL ''::text",
  'users.id text NOT NULL',
  'users.is_active boolean NOT NULL true',
  'users.is_staff boolean NOT NULL',
  'users.last_login timestamp with time zone',
  "users.last_name text NOT NULL ''::text",
  'users.max_clients double precision NOT NULL',
  "users.plan_id text NOT NULL 'free'::text",
  "users.search text NOT NULL ''::text",
  'users.username text',
];

describe('The users read model’s tables, from its entities', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase([], 2);
  });
  afterAll(async () => {
    await db.drop();
  });

  it('have the columns, keys and index the hand-written tables had, in any schema (a rebuild’s too)', async () => {
    const client = await db.pool.connect();
    try {
      await client.query('CREATE SCHEMA rm_users__next');
      await createEntityTables(client, 'rm_users__next', USERS_ENTITIES);
    } finally {
      client.release();
    }
    const columns = await db.pool.query<{ column: string }>(
      `SELECT concat_ws(' ', table_name || '.' || column_name, data_type, CASE WHEN is_nullable = 'NO' THEN 'NOT NULL' END, column_default) AS column
         FROM information_schema.columns WHERE table_schema = 'rm_users__next' ORDER BY 1`,
    );
    // free_plan's one-row key is new: it keeps the table to the one row it always held.
    expect(columns.rows.map((r) => r.column)).toEqual([...HAND_WRITTEN, 'free_plan.one_row boolean NOT NULL true'].sort());
    const keys = await db.pool.query<{ key: string }>(
      `SELECT t.relname || ' ' || pg_get_constraintdef(c.oid) AS key FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
        WHERE t.relnamespace = 'rm_users__next'::regnamespace AND c.contype <> 'n' ORDER BY 1`,
    );
    expect(keys.rows.map((r) => r.key)).toEqual([
      'free_plan CHECK (one_row)',
      'free_plan PRIMARY KEY (one_row)',
      'model_access PRIMARY KEY (model_id)',
      'users PRIMARY KEY (id)',
    ]);
    const indexes = await db.pool.query("SELECT 1 FROM pg_indexes WHERE schemaname = 'rm_users__next' AND indexdef LIKE '%(created_at)'");
    expect(indexes.rowCount).toBe(1);
  });
});
