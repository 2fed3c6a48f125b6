// One way to read a read model: its TypeORM entities (*.entities.ts) are the row types, and
// reads go through readSide's repositories and query builders. No hand-written `*Row`
// interface repeats an entity (a raw read names its rows as a Pick or Omit of the entity).
// Raw SQL is right only for:
//   - set-based projection writes (one statement over many rows inside a projection's apply);
//   - measured hot paths, with the benchmark named beside the query (the entitlement fan-out,
//     bench:entitlements; the audit trail's pages and the analytics report, bench:audit);
//   - figures an entity cannot express (sums and counts per period, FILTER, date_trunc),
//     typed by the figures they return.
import pg, { type Pool, type PoolClient } from 'pg';
import { DataSource, Table } from 'typeorm';

/** The entity classes describing one read model's tables (as `@Entity` classes). */
export type ReadModelEntities = readonly (new () => object)[];

const dataSources = new WeakMap<Pool, Map<ReadModelEntities, Promise<DataSource>>>();

/**
 * A TypeORM DataSource over the app's own pool, to query one read model's tables (the
 * console's lists). One per pool and entity list, made on first use and kept.
 *
 * TypeORM opens no pool of its own: its documented `driver` option (the pg module to use)
 * gets pg with `Pool` handing back this one, so there is one pool, one limit and one
 * shutdown (Database.close). Never destroy the DataSource: that would end the app's pool.
 */
export function readSide(pool: Pool, entities: ReadModelEntities): Promise<DataSource> {
  let forPool = dataSources.get(pool);
  if (!forPool) dataSources.set(pool, (forPool = new Map()));
  let dataSource = forPool.get(entities);
  if (!dataSource) {
    dataSource = dataSourceOver(pool, entities);
    forPool.set(entities, dataSource);
    // A failure (database down at the first request) is not kept: the next request tries again.
    dataSource.catch(() => forPool.delete(entities));
  }
  return dataSource;
}

/**
 * Creates the entities' tables (columns, defaults, primary keys, indexes) in `schema`, from
 * their TypeORM metadata, on `db`: inside the caller's transaction. The entities name the
 * live schema (rm_<name>) for reads; a rebuild creates the same tables in rm_<name>__next.
 */
export async function createEntityTables(db: PoolClient, schema: string, entities: ReadModelEntities): Promise<void> {
  const dataSource = await dataSourceOver(singleClientPool(db), entities);
  const runner = dataSource.createQueryRunner();
  try {
    for (const metadata of dataSource.entityMetadatas) {
      const table = Table.create(metadata, dataSource.driver);
      table.schema = schema;
      table.name = `${schema}.${metadata.tableName}`;
      await runner.createTable(table);
    }
  } finally {
    await runner.release();
  }
}

async function dataSourceOver(pool: Pool, entities: ReadModelEntities): Promise<DataSource> {
  // A constructor returning an object makes `new Pool(options)` that object.
  const SharedPool = function SharedPool() {
    return pool;
  };
  return new DataSource({
    type: 'postgres',
    driver: Object.create(pg, { Pool: { value: SharedPool } }) as unknown,
    entities: [...entities],
    // The pool's own listener (database.ts) logs lost idle connections.
    poolErrorHandler: () => undefined,
  }).initialize();
}

/** A stand-in pool handing out one client that stays the caller's (release does nothing). */
function singleClientPool(client: PoolClient): Pool {
  const stand: Partial<Pool> = {
    connect: ((callback: (error: Error | undefined, client: PoolClient, release: () => void) => void) => {
      callback(undefined, client, () => undefined);
    }) as Pool['connect'],
    on: (() => stand) as unknown as Pool['on'],
    end: ((callback?: () => void) => callback?.()) as Pool['end'],
  };
  return stand as Pool;
}
