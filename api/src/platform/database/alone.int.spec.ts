import { createTestDatabase, type TestDatabase } from '../testing/test-database';
import { alone } from './transaction';

describe('alone: one process at a time runs a job', () => {
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

  it('lets the job run again after it failed', async () => {
    await expect(alone(db.pool, 'failing', () => Promise.reject(new Error('storage down')))).rejects.toThrow('storage down');
    expect(await alone(db.pool, 'failing', async () => 'ran')).toBe('ran');
  });
});
