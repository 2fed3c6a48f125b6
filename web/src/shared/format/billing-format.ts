import { type Plan, UNLIMITED } from '@meshwork/contracts';

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** The api's money text ("29.00") as dollars ("$29.00"). */
export function formatMoney(amount: string | number): string {
  return usd.format(Number(amount));
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
