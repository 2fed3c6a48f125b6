import { createEntityTables } from '../../platform/database/read-side';
import { createTestDatabase, type TestDatabase } from '../../platform/testing/test-database';
import { AUDIT_TRAIL_ENTITIES } from './audit-trail.entities';

describe('The audit trail’s table, from its entity', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase([], 2);
  });
  afterAll(async () => {
    await db.drop();
  });

  it('has the columns, key and indexes the hand-written table had (audit trail version 1), in any schema', async () => {
    const client = await db.pool.connect();
    try {
      await client.query('CREATE SCHEMA rm_audit_trail__next');
      await createEntityTables(client, 'rm_audit_trail__next', AUDIT_TRAIL_ENTITIES);
    } finally {
      client.release();
    }
    const columns = await db.pool.query<{ column: string }>(
      `SELECT concat_ws(' ', table_name || '.' || column_name, data_type, CASE WHEN is_nullable = 'NO' THEN 'NOT NULL' END, column_default) AS column
         FROM information_schema.columns WHERE table_schema = 'rm_audit_trail__next' ORDER BY 1`,
    );
    expect(columns.rows.map((r) => r.column)).toEqual([
      'entries.actor_is_staff boolean NOT NULL',
      'entries.actor_user_id text',
      'entries.causation_id text',
      'entries.correlation_id text NOT NULL',
      'entries.event_id uuid NOT NULL',
      'entries.occurred_at timestamp with time zone NOT NULL',
      'entries.position bigint NOT NULL',
      'entries.stream_id text NOT NULL',
      'entries.stream_version integer NOT NULL',
      'entries.type text NOT NULL',
    ]);
    const keys = await db.pool.query<{ key: string }>(
      `SELECT t.relname || ' ' || pg_get_constraintdef(c.oid) AS key FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
        WHERE t.relnamespace = 'rm_audit_trail__next'::regnamespace AND c.contype <> 'n' ORDER BY 1`,
    );
    expect(keys.rows.map((r) => r.key)).toEqual(['entries PRIMARY KEY ("position")']);
    const indexes = await db.pool.query<{ index: string }>(
      `SELECT regexp_replace(indexdef, '^CREATE (UNIQUE )?INDEX \\S+ ON \\S+ USING ', '\\1') AS index
         FROM pg_indexes WHERE schemaname = 'rm_audit_trail__next' AND indexname NOT LIKE 'PK_%' ORDER BY 1`,
    );
    expect(indexes.rows.map((r) => r.index)).toEqual([
      'btree (actor_user_id, occurred_at)',
      'btree (correlation_id)',
      'btree (stream_id, stream_version)',
      'btree (type, occurred_at)',
    ]);
  });
});
