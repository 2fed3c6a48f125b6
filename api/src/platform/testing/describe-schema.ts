import type { Pool } from 'pg';
import { createEntityTables, type ReadModelEntities } from '../database/read-side';

/** A schema's tables as text, each list sorted, for tests that pin a read model's tables. */
export interface SchemaDescription {
  /** `table.column type[ NOT NULL][ default]`, the type as PostgreSQL prints it (`timestamp with time zone`). */
  columns: string[];
  /** `table constraint`: keys and checks (`users PRIMARY KEY (id)`), NOT NULLs left to `columns`. */
  keys: string[];
  /** `table [UNIQUE ]btree (columns)`, besides the primary keys' own. */
  indexes: string[];
}

/** Creates `entities`' tables in a fresh `schema` (as a rebuild does in `rm_<name>__next`). */
export async function createTablesIn(pool: Pool, schema: string, entities: ReadModelEntities): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query(`CREATE SCHEMA ${schema}`);
    await createEntityTables(client, schema, entities);
  } finally {
    client.release();
  }
}

/** The columns, keys and indexes of every table in `schema`. */
export async function describeSchema(pool: Pool, schema: string): Promise<SchemaDescription> {
  // Sorted here, not by the database's collation, so expectations read in one order everywhere.
  const texts = async (sql: string) => (await pool.query<{ text: string }>(sql, [schema])).rows.map((r) => r.text).sort();
  return {
    columns: await texts(
      `SELECT concat_ws(' ', c.table_name || '.' || c.column_name, format_type(a.atttypid, a.atttypmod),
              CASE WHEN c.is_nullable = 'NO' THEN 'NOT NULL' END, c.column_default) AS text
         FROM information_schema.columns c
         JOIN pg_attribute a ON a.attrelid = (quote_ident(c.table_schema) || '.' || quote_ident(c.table_name))::regclass
                            AND a.attname = c.column_name
        WHERE c.table_schema = $1`,
    ),
    keys: await texts(
      `SELECT t.relname || ' ' || pg_get_constraintdef(c.oid) AS text FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
        WHERE t.relnamespace = $1::regnamespace AND c.contype <> 'n'`,
    ),
    indexes: await texts(
      `SELECT tablename || ' ' || regexp_replace(indexdef, '^CREATE (UNIQUE )?INDEX \\S+ ON \\S+ USING ', '\\1') AS text
         FROM pg_indexes WHERE schemaname = $1 AND indexname NOT LIKE 'PK_%'`,
    ),
  };
}
