import { createTestDatabase } from '@meshwork/testkit/api/test-database';
import { eventStoreMigrations } from './event-store.schema';
import { PostgresEventStore } from './postgres-event-store';
import { events } from '@meshwork/testkit/api/an-event';
import { eventStoreContract } from './testing/event-store.contract';
import type { Upcasters } from './upcasters';

eventStoreContract('PostgreSQL', async (upcasters?: Upcasters) => {
  const db = await createTestDatabase(eventStoreMigrations, 24);
  const store = new PostgresEventStore(db.pool, upcasters);
  return {
    store,
    async teardown() {
      await store.close();
      await db.drop();
    },
  };
});

describe('PostgresEventStore holes in the log', () => {
  const open: import('pg').PoolClient[] = [];
  /** Appends through a transaction the test holds open, as a slow writer would. */
  async function openAppend(pool: import('pg').Pool, streamId: string) {
    const client = await pool.connect();
    open.push(client);
    await client.query('BEGIN');
    const [event] = events(1);
    await client.query(`SELECT es_append($1, 0, $2, $3, $4, $5, $6, $7, '{}', '{}', '{}', '{}')`, [
      streamId,
      [event!.eventId],
      [event!.type],
      [1],
      [JSON.stringify(event!.data)],
      [JSON.stringify(event!.metadata)],
      [event!.occurredAt],
    ]);
    return {
      commit: () => client.query('COMMIT'),
      rollback: () => client.query('ROLLBACK'),
    };
  }

  it('does not hand out an event past a slower writer still committing, and then delivers both', async () => {
    const db = await createTestDatabase(eventStoreMigrations);
    const store = new PostgresEventStore(db.pool);
    try {
      const slow = await openAppend(db.pool, 'slow-1'); // draws position 1, not committed
      await store.append('fast-1', events(1), 0); // position 2, committed

      const whileOpen = await store.readAll(0, 10);
      expect(whileOpen).toEqual([]); // position 2 must wait for 1

      await slow.commit();
      expect((await store.readAll(0, 10)).map((e) => [e.position, e.streamId])).toEqual([
        [1, 'slow-1'],
        [2, 'fast-1'],
      ]);
    } finally {
      // A failed assertion must not leave a transaction open: the database could not be dropped.
      open.splice(0).forEach((client) => client.release(true));
      await store.close();
      await db.drop();
    }
  });

  it('steps over a hole left by an aborted writer once that writer has ended', async () => {
    const db = await createTestDatabase(eventStoreMigrations);
    const store = new PostgresEventStore(db.pool);
    try {
      const aborted = await openAppend(db.pool, 'gone-1');
      await store.append('kept-1', events(1), 0);
      await aborted.rollback();
      const read = await store.readAll(0, 10);
      expect(read.map((e) => [e.position, e.streamId])).toEqual([[2, 'kept-1']]);
    } finally {
      // A failed assertion must not leave a transaction open: the database could not be dropped.
      open.splice(0).forEach((client) => client.release(true));
      await store.close();
      await db.drop();
    }
  });
});
