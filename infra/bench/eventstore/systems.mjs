// The three systems every workload runs against, behind one small adapter shape:
//
//   setup()                       schema (each system's own migrations)
//   writer(streamId)              -> append(events) => positions; tracks the expected version
//   readPage(after, limit)        -> { n, last }: one catch-up page after global position `after`
//   startProjection(onCommitted)  -> { stop() }: a projection that upserts one row per event;
//                                    onCommitted(positions) is called once the batch committed
//   afterFill()                   VACUUM ANALYZE + CHECKPOINT after a bulk fill, so no reader pays
//                                 for hint bits or dirty buffers the writer left behind
//   close()
//
// ours  = Meshwork's PostgresEventStore (compiled in dist/) and its ProjectionRunner.
// limit = the same tables (our migrations), written and read with plain SQL through the same
//         kind of pg.Pool: what PostgreSQL + node-postgres can do for the same rows with no
//         event-store logic at all (no stream row, no version check, no plpgsql, no NOTIFY,
//         no hole handling). It is the ceiling, not a competitor.
// peer  = @event-driven-io/emmett-postgresql, its own schema, append, read and consumer APIs.
//
// Every system gets a pg.Pool of the same size. Each (system, workload) runs in its own
// process (see worker.mjs): emmett's dumbo sets node-postgres' *global* type parsers (int8 ->
// BigInt, jsonb through a reviver) when it loads, which would otherwise change how our store's
// rows are parsed.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { EVENT_TYPE } from './support.mjs';

const require = createRequire(import.meta.url);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const dist = (p) => path.join(repoRoot, 'dist', p);

const EVENT_COLUMNS = 'position, event_id, stream_id, stream_version, type, schema_version, data, metadata, occurred_at, recorded_at';

/** The projection both ours and the peer run for the lag line: one upsert per event. */
const UPSERT = (table) =>
  `INSERT INTO ${table} AS t (customer_id, orders, last_position) VALUES ($1, 1, $2)
   ON CONFLICT (customer_id) DO UPDATE SET orders = t.orders + 1, last_position = excluded.last_position`;
const READ_MODEL = (table) =>
  `CREATE TABLE ${table} (customer_id text PRIMARY KEY, orders integer NOT NULL, last_position bigint NOT NULL)`;

export async function createSystem(name, url, { poolSize }) {
  switch (name) {
    case 'ours':
      return ours(url, poolSize);
    case 'limit':
      return limit(url, poolSize);
    case 'peer':
      return peer(url, poolSize);
    default:
      throw new Error(`unknown system ${name}`);
  }
}

function ourModules() {
  return {
    ...require(dist('api/src/platform/event-store/postgres-event-store.js')),
    ...require(dist('api/src/platform/event-store/event-store.schema.js')),
    ...require(dist('api/src/platform/database/migrations.js')),
    ...require(dist('api/src/platform/projections/checkpoints.schema.js')),
    ...require(dist('api/src/platform/projections/projection-runner.js')),
  };
}

async function migrateOurs(pool) {
  const { migrate, eventStoreMigrations, checkpointMigrations } = ourModules();
  await migrate(pool, [...eventStoreMigrations, ...checkpointMigrations]);
}

async function settle(pool, tables) {
  for (const t of tables) await pool.query(`VACUUM (ANALYZE) ${t}`);
  await pool.query('CHECKPOINT');
}

// ---------------------------------------------------------------------------------------
function ours(url, poolSize) {
  const m = ourModules();
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  const store = new m.PostgresEventStore(pool);
  return {
    name: 'ours',
    pool,
    setup: () => migrateOurs(pool),
    writer(streamId) {
      let version = 0; // stream must not exist yet; then the version each append returned
      return async (events) => {
        const r = await store.append(streamId, events, version);
        version = r.nextExpectedVersion;
        return r.positions;
      };
    },
    async readPage(after, limit) {
      const events = await store.readAll(after, limit);
      return { n: events.length, last: events.length ? events[events.length - 1].position : after };
    },
    async startProjection(onCommitted) {
      const projection = {
        name: 'bench_lag',
        handles: [EVENT_TYPE],
        createTables: (db, schema) => db.query(READ_MODEL(`${schema}.customer_orders`)),
        apply: (db, schema, e) => db.query(UPSERT(`${schema}.customer_orders`), [e.data.customerId, e.position]),
      };
      const runner = new m.ProjectionRunner(pool, store, projection, {
        // Runner defaults otherwise (batch 500, idle wait 500 ms ended early by NOTIFY).
        onCommitted: (events) => onCommitted(events.map((e) => e.position)),
      });
      runner.start();
      return { stop: () => runner.stop() };
    },
    afterFill: () => settle(pool, ['es_events', 'es_streams']),
    async close() {
      await store.close();
      await pool.end();
    },
  };
}

// ---------------------------------------------------------------------------------------
function limit(url, poolSize) {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  const insertSql = new Map();
  /** INSERT of n rows into es_events with positions from the same sequence es_append uses. */
  const insertRows = (n) => {
    if (!insertSql.has(n)) {
      const rows = Array.from({ length: n }, (_, i) => {
        const p = (k) => `$${i * 8 + k}`;
        return `(nextval('es_position_seq'), ${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}, ${p(8)})`;
      });
      insertSql.set(
        n,
        `INSERT INTO es_events (position, event_id, stream_id, stream_version, type, schema_version, data, metadata, occurred_at)
         VALUES ${rows.join(', ')} RETURNING position`,
      );
    }
    return insertSql.get(n);
  };
  return {
    name: 'limit',
    pool,
    setup: () => migrateOurs(pool),
    writer(streamId) {
      let version = 0; // kept client-side: no stream row, no check (the unique index still applies)
      return async (events) => {
        const params = [];
        for (const e of events) {
          version += 1;
          params.push(
            e.eventId,
            streamId,
            version,
            e.type,
            e.schemaVersion,
            JSON.stringify(e.data),
            JSON.stringify(e.metadata),
            e.occurredAt,
          );
        }
        const { rows } = await pool.query(insertRows(events.length), params);
        return rows.map((r) => Number(r.position));
      };
    },
    /** The same keyset page readAll runs first, same columns, node-postgres' default parsing. */
    async readPage(after, lim) {
      const { rows } = await pool.query(`SELECT ${EVENT_COLUMNS} FROM es_events WHERE position > $1 ORDER BY position LIMIT $2`, [
        after,
        lim,
      ]);
      return { n: rows.length, last: rows.length ? Number(rows[rows.length - 1].position) : after };
    },
    afterFill: () => settle(pool, ['es_events', 'es_streams']),
    close: () => pool.end(),
  };
}

/**
 * Not a table line: the same raw SELECT with jsonb and timestamptz left as strings, to show
 * how much of the catch-up time is node-postgres parsing rather than the database.
 */
export function rawUnparsedReader(url, poolSize) {
  const keep = new Set([3802, 114, 1184, 1114]); // jsonb, json, timestamptz, timestamp
  const types = { getTypeParser: (oid, format) => (keep.has(oid) ? (v) => v : pg.types.getTypeParser(oid, format)) };
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types });
  return {
    pool,
    async readPage(after, lim) {
      const { rows } = await pool.query(`SELECT ${EVENT_COLUMNS} FROM es_events WHERE position > $1 ORDER BY position LIMIT $2`, [
        after,
        lim,
      ]);
      return { n: rows.length, last: rows.length ? Number(rows[rows.length - 1].position) : after };
    },
    close: () => pool.end(),
  };
}

// ---------------------------------------------------------------------------------------
async function peer(url, poolSize) {
  const emmett = await import('@event-driven-io/emmett-postgresql');
  const { dumbo } = await import('@event-driven-io/dumbo');
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // The store and the reader share one pg.Pool (dumbo wraps it as an "ambient" pool).
  const store = emmett.getPostgreSQLEventStore(url, { connectionOptions: { pool } });
  const executor = dumbo({ connectionString: url, pool });
  const toMessage = (e) => ({ type: e.type, data: e.data, metadata: e.metadata });
  return {
    name: 'peer',
    pool,
    setup: () => store.schema.migrate(),
    writer(streamId) {
      let version = 0n; // 0n = the stream must not exist (emmett inserts its stream row)
      return async (events) => {
        const r = await store.appendToStream(streamId, events.map(toMessage), { expectedStreamVersion: version });
        version = r.nextExpectedStreamVersion;
        // emmett returns only the last global position
        const last = Number(r.lastEventGlobalPosition);
        return Array.from({ length: events.length }, (_, i) => last - events.length + 1 + i);
      };
    },
    /** emmett's own "read all" page: readMessagesBatch, which the consumer's puller uses. */
    async readPage(after, lim) {
      const r = await emmett.readMessagesBatch(executor.execute, { after: BigInt(after), batchSize: lim });
      return { n: r.messages.length, last: Number(r.currentGlobalPosition) };
    },
    async startProjection(onCommitted) {
      await pool.query(READ_MODEL('bench_customer_orders'));
      // emmett's async projection machinery: a consumer pulls with readMessagesBatch and hands
      // each batch to a projector, which applies it and stores its checkpoint per message in
      // one transaction. Its defaults (poll 50 ms, back off to 1 s when idle) except the batch
      // size, set to our runner's 500.
      const consumer = store.consumer({ pulling: { batchSize: 500 } });
      const processor = consumer.projector({
        projection: emmett.postgreSQLProjection({
          name: 'bench_lag',
          canHandle: [EVENT_TYPE],
          handle: async (events, ctx) => {
            for (const e of events)
              await ctx.connection.client.query(UPSERT('bench_customer_orders'), [e.data.customerId, String(e.metadata.globalPosition)]);
          },
        }),
      });
      // processor.handle runs the batch inside its transaction and returns after COMMIT: the
      // consumer calls it through this property, so wrapping it gives the commit time.
      const handle = processor.handle;
      processor.handle = async (messages, ctx) => {
        const result = await handle(messages, ctx);
        onCommitted(messages.map((m) => Number(m.metadata.globalPosition)));
        return result;
      };
      const running = consumer.start();
      return {
        async stop() {
          await consumer.stop();
          await running;
        },
      };
    },
    afterFill: () => settle(pool, ['emt_messages', 'emt_streams']),
    async close() {
      await store.close();
      await pool.end().catch(() => undefined);
    },
  };
}
