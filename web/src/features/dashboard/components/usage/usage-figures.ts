import type { DeviceUsage } from '@meshwork/contracts';

/** Whole numbers as people read them: 1,234 below ten thousand, 12.3K, 4.5M above. */
export function formatCount(value: number): string {
  if (value < 10_000) return value.toLocaleString('en-US');
  return new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 }).format(value);
}

/** Busy time: seconds under a minute, minutes under an hour, then hours with one decimal. */
export function formatBusy(ms: number): string {
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}

/** The window in words: "Last 7 days (Nov 21 – Nov 27)". */
export function windowLabel(usage: Pick<DeviceUsage, 'window_days' | 'from' | 'to'>): string {
  const day = (date: string) =>
    new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
  return `Last ${usage.window_days} days (${day(usage.from)} – ${day(usage.to)})`;
}

export interface TokenBar {
  date: string;
  tokens: number;
  /** The bar's height as a share of the tallest day, 0 to 1. */
  share: number;
}

/** One bar per day of the window: prompt and completion tokens, scaled to the busiest day. */
export function tokenBars(days: DeviceUsage['days']): TokenBar[] {
  const tokens = days.map((day) => day.prompt_tokens + day.completion_tokens);
  const most = Math.max(1, ...tokens);
  return days.map((day, i) => ({ date: day.date, tokens: tokens[i]!, share: tokens[i]! / most }));
}
