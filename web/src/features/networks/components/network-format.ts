import { UNLIMITED } from '@meshwork/contracts';

/** "2 of 5 networks", "1 of Unlimited": what a plan limit leaves, 999 meaning no cap. */
export function usedOf(used: number, limit: number): string {
  return `${used} of ${limit >= UNLIMITED ? 'Unlimited' : limit}`;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'} ago`;

/** When a device was last seen, in words ("just now", "5 minutes ago"); a date past a month. */
export function formatRelative(iso: string, now: Date): string {
  const then = new Date(iso);
  if (Number.isNaN(then.getTime())) return '—';
  const elapsed = Math.max(0, now.getTime() - then.getTime());
  if (elapsed < MINUTE) return 'just now';
  if (elapsed < HOUR) return plural(Math.floor(elapsed / MINUTE), 'minute');
  if (elapsed < DAY) return plural(Math.floor(elapsed / HOUR), 'hour');
  if (elapsed < 30 * DAY) return plural(Math.floor(elapsed / DAY), 'day');
  return then.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}

/** Time left until `expiresAt` as m:ss ("14:59"), or null once it has passed. */
export function formatCountdown(expiresAt: string, now: Date): string | null {
  const left = Math.floor((new Date(expiresAt).getTime() - now.getTime()) / 1000);
  if (!(left > 0)) return null;
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
}
