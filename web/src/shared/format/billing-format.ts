import { type Plan, UNLIMITED } from '@meshwork/contracts';

/**
 * Money text as answers carry it ("29.00", two decimals) in dollars: "$29.00", "$1,200.00",
 * "-$5.00", as Intl's en-US currency format writes them. Written out because building that
 * formatter costs a phone about 20 ms on every page that shows a price (bench:site).
 */
export function formatMoney(amount: string): string {
  const value = Number(amount);
  if (!Number.isFinite(value)) return '—';
  // Exact: a number read from two decimals is within a hundredth's fraction of them.
  const [whole = '', cents = ''] = Math.abs(value).toFixed(2).split('.');
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  return `${sign}$${whole.replace(/\B(?=(\d{3})+$)/g, ',')}.${cents}`;
}

/** A plan limit; 999 and above is how plans say "no limit". */
export function formatLimit(limit: number): string {
  return limit >= UNLIMITED ? 'Unlimited' : String(limit);
}

/** A counted limit in words: "1 network", "5 networks", "Unlimited networks". */
export function limitText(limit: number, noun: string): string {
  if (limit >= UNLIMITED) return `Unlimited ${noun}s`;
  return `${limit} ${noun}${limit === 1 ? '' : 's'}`;
}

/** What a plan gives, as the lines of a checklist: its limits, then its features. */
export function planHighlights(plan: Pick<Plan, 'max_networks' | 'max_clients_per_network' | 'features'>): string[] {
  return [limitText(plan.max_networks, 'network'), `${limitText(plan.max_clients_per_network, 'client')} per network`, ...plan.features];
}

/** Spec section 9: en-US short date with hour and minute ("May 6, 2026, 3:04 PM"), or a dash. */
export function formatDateTime(iso: string | null | undefined): string {
  const date = iso ? new Date(iso) : null;
  if (!date || Number.isNaN(date.getTime())) return '—';
  return date.toLocaleString('en-US', { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
}
