import { Client } from 'pg';
import { SignedInUsers } from '../../identity/infrastructure/signed-in-users';
import { PostgresEventStore } from '../event-store/postgres-event-store';
import { logger } from '../logging/logger';
import { eventually } from '@meshwork/testkit/eventually';
import { createTestDatabase, type TestDatabase } from '@meshwork/testkit/api/test-database';
import { holdConnection } from './held-connection';

/**
 * Connections held for a while (LISTEN, advisory locks) end in two ways, in either order
 * and at shutdown often both: their holder closes, and the server ends them. Either way
 * they go back to the pool once, and nothing is thrown where no one can catch it.
 */
describe('held connections: given back once, whoever ends them first', () => {
  let db: TestDatabase;
  /** What a test opened, closed even when it fails: the pool cannot end while they hold connections. */
  const opened: { close(): Promise<void> }[] = [];
  beforeAll(() => (logger.level = 'silent')); // the lost connections are logged as warnings
  beforeEach(async () => {
    db = await createTestDatabase([], 4);
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((holder) => holder.close()));
    await db.drop();
  });
  const track = <T extends { close(): Promise<void> }>(holder: T): T => (opened.push(holder), holder);

  /** The backends of this database's connections running `query`, seen from outside the pool under test. */
  async function backends(query: string): Promise<number[]> {
    const observer = new Client({ connectionString: db.url });
    await observer.connect();
    try {
      const { rows } = await observer.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query = $1',
        [query],
      );
      return rows.map((row) => row.pid);
    } finally {
      await observer.end();
    }
  }

  /** The backend running `query`, once it runs it (a LISTEN starts in the background). */
  async function backend(query: string): Promise<number> {
    let pid: number | undefined;
    await eventually(async () => ([pid] = await backends(query)).length > 0, `a connection to run ${query}`);
    return pid!;
  }

  /** Ends the server side of the connection running `query`, as a server shutdown does. */
  async function terminate(query: string): Promise<void> {
    const pid = await backend(query);
    const observer = new Client({ connectionString: db.url });
    await observer.connect();
    await observer.query('SELECT pg_terminate_backend($1)', [pid]).finally(() => observer.end());
  }

  /** Gone from the server: not left idle in the pool, still listening. */
  async function expectNoBackend(query: string): Promise<void> {
    await eventually(async () => (await backends(query)).length === 0, `no connection left running ${query}`);
  }

  /**
   * The pool has no connection checked out: the held one that the server ended was handled
   * (its error event came, and it went back to the pool, destroyed), not merely killed.
   */
  const handedBack = () => eventually(async () => db.pool.totalCount === db.pool.idleCount, 'the ended connection to be handed back');

  it('reports a connection the server ended once, destroys it, and ignores later releases', async () => {
    const lost: Error[] = [];
    const held = await holdConnection(db.pool, (error) => lost.push(error));
    await held.client.query('SELECT 1 AS held');
    await terminate('SELECT 1 AS held');
    await eventually(async () => !held.alive, 'the connection to be seen dead');
    await handedBack();
    expect(lost).toHaveLength(1);
    expect(() => (held.release(), held.release(true))).not.toThrow();
    expect(db.pool.totalCount).toBe(0); // destroyed, not back among the idle connections
    expect((await db.pool.query('SELECT 2 AS n')).rows[0].n).toBe(2);
  });

  it('releases once however often it is told to', async () => {
    const held = await holdConnection(db.pool);
    held.release();
    expect(() => held.release()).not.toThrow();
    expect(db.pool.idleCount).toBe(1);
  });

  it('closes the signed-in users’ LISTEN after the server ended it, or ends it itself', async () => {
    const signedIn = track(new SignedInUsers(db.pool, async () => null));
    await signedIn.of('no-such-session', new Date()); // starts its LISTEN
    await terminate('LISTEN identity_changed');
    await handedBack();
    await expect(signedIn.close()).resolves.toBeUndefined();

    const again = track(new SignedInUsers(db.pool, async () => null));
    await again.of('no-such-session', new Date());
    await backend('LISTEN identity_changed');
    await again.close();
    await expectNoBackend('LISTEN identity_changed');
    await expect(again.close()).resolves.toBeUndefined();
  });

  it('closes the event store’s LISTEN after the server ended it, or ends it itself', async () => {
    const store = track(new PostgresEventStore(db.pool));
    await store.waitForAppend(1); // starts its LISTEN
    await terminate('LISTEN es_appended');
    await handedBack();
    await expect(store.close()).resolves.toBeUndefined();

    const again = track(new PostgresEventStore(db.pool));
    await again.waitForAppend(1);
    await backend('LISTEN es_appended');
    await again.close();
    await expectNoBackend('LISTEN es_appended');
    await expect(again.close()).resolves.toBeUndefined();
  });
});
