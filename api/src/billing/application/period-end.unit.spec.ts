import { MAX_PLAN_DAYS } from '@meshwork/contracts';
import { periodEnd } from './billing-context';

describe('periodEnd', () => {
  const start = new Date('2026-11-23T00:00:00Z');

  it('adds the plan duration, or a year for yearly billing', () => {
    expect(periodEnd(start, 'monthly', 30).toISOString()).toBe('2026-12-23T00:00:00.000Z');
    expect(periodEnd(start, 'yearly', 30).toISOString()).toBe('2027-11-23T00:00:00.000Z');
  });

  it('reads a duration stored before the ten-year rule as ten years, not as an invalid date (issue 10, item 5)', () => {
    const end = periodEnd(start, 'monthly', 2_000_000_000);
    expect(Number.isNaN(end.getTime())).toBe(false);
    expect(end.getTime() - start.getTime()).toBe(MAX_PLAN_DAYS * 86_400_000);
  });
});
