import { describe, expect, it } from 'vitest';
import { formatCountdown, formatRelative, usedOf } from './network-format';

const now = new Date('2026-11-23T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();

describe('usedOf', () => {
  it('counts against the limit, 999 and above being unlimited', () => {
    expect(usedOf(2, 5)).toBe('2 of 5');
    expect(usedOf(3, 999)).toBe('3 of Unlimited');
  });
});

describe('formatRelative', () => {
  it('says just now under a minute, then minutes, hours and days', () => {
    expect(formatRelative(ago(30_000), now)).toBe('just now');
    expect(formatRelative(ago(60_000), now)).toBe('1 minute ago');
    expect(formatRelative(ago(5 * 60_000), now)).toBe('5 minutes ago');
    expect(formatRelative(ago(3 * 3_600_000), now)).toBe('3 hours ago');
    expect(formatRelative(ago(2 * 86_400_000), now)).toBe('2 days ago');
  });

  it('gives the date past a month, and a dash for no date', () => {
    expect(formatRelative('2026-01-05T12:00:00Z', now)).toBe('Jan 5, 2026');
    expect(formatRelative('not a date', now)).toBe('—');
  });

  it('treats a clock slightly ahead as just now, never "in the future"', () => {
    expect(formatRelative(new Date(now.getTime() + 5_000).toISOString(), now)).toBe('just now');
  });
});

describe('formatCountdown', () => {
  it('shows minutes and zero-padded seconds left', () => {
    expect(formatCountdown('2026-11-23T12:15:00Z', now)).toBe('15:00');
    expect(formatCountdown('2026-11-23T12:00:09Z', now)).toBe('0:09');
  });

  it('is null once the code has expired', () => {
    expect(formatCountdown('2026-11-23T12:00:00Z', now)).toBeNull();
    expect(formatCountdown('2026-11-23T11:59:00Z', now)).toBeNull();
  });
});
