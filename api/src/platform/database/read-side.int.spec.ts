import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { createTestDatabase, type TestDatabase } from '@meshwork/testkit/api/test-database';
import { createEntityTables, readSide } from './read-side';

@Entity({ schema: 'rm_sample', name: 'notes' })
class Note {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Index()
  @Column({ type: 'text', default: '' })
  body!: string;

  @Column({ type: 'timestamptz', nullable: true })
  read_at!: Date | null;
}

const ENTITIES = [Note];

describe('The read side through TypeORM', () => {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await createTestDatabase([], 3);
  });
  afterEach(async () => {
    await db.drop();
  });

  it('creates the entities’ tables in the schema it is given, inside the caller’s transaction', async () => {
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('CREATE SCHEMA rm_sample__next');
      await createEntityTables(client, 'rm_sample__next', ENTITIES);
      await client.query("INSERT INTO rm_sample__next.notes (id) VALUES ('a')");
      const { rows } = await client.query('SELECT id, body, read_at FROM rm_sample__next.notes');
      expect(rows).toEqual([{ id: 'a', body: '', read_at: null }]);
      const indexes = await client.query("SELECT indexdef FROM pg_indexes WHERE schemaname = 'rm_sample__next' ORDER BY indexdef");
      expect(indexes.rows.map((r: { indexdef: string }) => r.indexdef.replace(/"?(IDX|PK)_\w+"?/, 'name'))).toEqual([
        'CREATE INDEX name ON rm_sample__next.notes USING btree (body)',
        'CREATE UNIQUE INDEX name ON rm_sample__next.notes USING btree (id)',
      ]);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    const { rowCount } = await db.pool.query("SELECT 1 FROM pg_namespace WHERE nspname = 'rm_sample__next'");
    expect(rowCount).toBe(0);
  });

  it('queries the live schema through the app’s own pool, opening none of its own', async () => {
    await db.pool.query('CREATE SCHEMA rm_sample');
    const client = await db.pool.connect();
    await createEntityTables(client, 'rm_sample', ENTITIES).finally(() => client.release());
    await db.pool.query("INSERT INTO rm_sample.notes (id, body) VALUES ('b', 'two'), ('a', 'one')");

    const dataSource = await readSide(db.pool, ENTITIES);
    expect((dataSource.driver as PostgresDriver).master).toBe(db.pool);
    expect(await readSide(db.pool, ENTITIES)).toBe(dataSource);
    const notes = await dataSource.getRepository(Note).createQueryBuilder('n').orderBy('n.body', 'DESC').getMany();
    expect(notes.map((n) => n.id)).toEqual(['b', 'a']);
  });
});
