import { eventually } from '@meshwork/testkit/eventually';
import { createTestDatabase, type TestDatabase } from '@meshwork/testkit/api/test-database';
import { alone, inTurn } from './transaction';

describe('job locks: one process at a time runs a job', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase([], 4);
  });
  afterAll(() => db.drop());

  /**
   * A job that has started (so it holds its lock: `alone` runs the work only once it has it)
   * and runs until released, then does `last` before it ends.
   */
  function heldJob(job: string, last = () => {}) {
    let release!: () => void;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const done = alone(db.pool, job, async () => {
      started();
      await new Promise<void>((resolve) => (release = resolve));
      last();
      return job;
    });
    return { running, done, release: () => release() };
  }

  /** Some session of this database waits for the lock of `job` (what `inTurn` does while another runs it). */
  async function waitingForLock(job: string): Promise<boolean> {
    // pg_locks shows the two int4 keys as oids: the hash's 32 bits read unsigned.
    const { rows } = await db.pool.query<{ waiting: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM pg_locks
                       WHERE locktype = 'advisory' AND NOT granted AND objsubid = 2
                         AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                         AND objid = ((hashtext($1)::bigint + 4294967296) % 4294967296)::oid) AS waiting`,
      [job],
    );
    return rows[0]!.waiting;
  }

  it('skips a job another connection is running, and runs it again once that one ended', async () => {
    const first = heldJob('sweep');
    await first.running;
    expect(await alone(db.pool, 'sweep', async () => 'second')).toBeNull();
    expect(await alone(db.pool, 'another job', async () => 'other')).toBe('other');
    first.release();
    expect(await first.done).toBe('sweep');
    expect(await alone(db.pool, 'sweep', async () => 'third')).toBe('third');
  });

  it('inTurn waits for the job another connection is running, then runs it', async () => {
    const order: string[] = [];
    const first = heldJob('turns', () => order.push('first'));
    await first.running;
    const second = inTurn(db.pool, 'turns', async () => {
      order.push('second');
      return 2;
    });
    await eventually(() => waitingForLock('turns'), 'inTurn to wait for the lock in PostgreSQL');
    expect(order).toEqual([]); // still waiting for the first
    first.release();
    expect(await second).toBe(2);
    expect(await first.done).toBe('turns');
    expect(order).toEqual(['first', 'second']);
    expect(await waitingForLock('turns')).toBe(false);
  });

  it('lets the job run again after it failed', async () => {
    await expect(alone(db.pool, 'failing', () => Promise.reject(new Error('storage down')))).rejects.toThrow('storage down');
    expect(await alone(db.pool, 'failing', async () => 'ran')).toBe('ran');
  });
});
