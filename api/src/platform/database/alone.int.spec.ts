import { createTestDatabase, type TestDatabase } from '../testing/test-database';
import { alone, inTurn } from './transaction';

describe('job locks: one process at a time runs a job', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase([], 4);
  });
  afterAll(() => db.drop());

  it('skips a job another connection is running, and runs it again once that one ended', async () => {
    let release!: () => void;
    const first = alone(db.pool, 'sweep', () => new Promise<string>((resolve) => (release = () => resolve('first'))));
    await new Promise((r) => setTimeout(r, 50)); // the first holds the lock now
    expect(await alone(db.pool, 'sweep', async () => 'second')).toBeNull();
    expect(await alone(db.pool, 'another job', async () => 'other')).toBe('other');
    release();
    expect(await first).toBe('first');
    expect(await alone(db.pool, 'sweep', async () => 'third')).toBe('third');
  });

  it('inTurn waits for the job another connection is running, then runs it', async () => {
    const order: string[] = [];
    let release!: () => void;
    const first = alone(db.pool, 'turns', () => new Promise<void>((resolve) => (release = resolve)).then(() => void order.push('first')));
    await new Promise((r) => setTimeout(r, 50));
    const second = inTurn(db.pool, 'turns', async () => {
      order.push('second');
      return 2;
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(order).toEqual([]); // still waiting for the first
    release();
    expect(await second).toBe(2);
    await first;
    expect(order).toEqual(['first', 'second']);
  });

  it('lets the job run again after it failed', async () => {
    await expect(alone(db.pool, 'failing', () => Promise.reject(new Error('storage down')))).rejects.toThrow('storage down');
    expect(await alone(db.pool, 'failing', async () => 'ran')).toBe('ran');
  });
});
