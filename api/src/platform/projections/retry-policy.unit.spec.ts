import { backoffMs, defaultRetry, isTransientPostgresError } from './retry-policy';

describe('backoffMs', () => {
  it('doubles from the first delay and stops growing at the cap', () => {
    const options = { ...defaultRetry, firstDelayMs: 1_000, maxDelayMs: 10_000 };
    expect([1, 2, 3, 4, 5, 6, 60].map((attempt) => backoffMs(attempt, options))).toEqual([
      1_000, 2_000, 4_000, 8_000, 10_000, 10_000, 10_000,
    ]);
  });

  it('gives a stall after a few minutes by default', () => {
    const waited = Array.from({ length: defaultRetry.attempts - 1 }, (_, i) => backoffMs(i + 1, defaultRetry)).reduce((a, b) => a + b);
    expect(waited).toBeGreaterThan(2 * 60_000);
    expect(waited).toBeLessThan(10 * 60_000);
  });
});

describe('isTransientPostgresError', () => {
  it('is true for errors about the server or the connection', () => {
    for (const code of ['08006', '40001', '40P01', '53300', '57P01', 'ECONNREFUSED']) {
      expect(isTransientPostgresError(Object.assign(new Error('x'), { code }))).toBe(true);
    }
    expect(isTransientPostgresError(new Error('Connection terminated unexpectedly'))).toBe(true);
  });

  it('is false for errors about the data, and for plain bugs', () => {
    for (const code of ['22021', '22003', '23505', '23502', '42703']) {
      expect(isTransientPostgresError(Object.assign(new Error('x'), { code }))).toBe(false);
    }
    expect(isTransientPostgresError(new TypeError("Cannot read properties of undefined (reading 'userId')"))).toBe(false);
    expect(isTransientPostgresError(undefined)).toBe(false);
  });
});
