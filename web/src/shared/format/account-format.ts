/** Plan names arrive as slugs ('free', 'pro') or names; show them as names. */
export function formatPlanName(plan: string | null | undefined): string {
  const name = (plan ?? '').trim();
  if (name === '') return 'Free';
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** 999 clients is how plans say "no limit". */
export function formatClientLimit(maxClients: number): string {
  return maxClients >= 999 ? 'Unlimited' : String(maxClients);
}

/** A calendar date in en-US ("May 6, 2026"), or a dash when the value is not a date. */
export function formatDay(iso: string | null | undefined): string {
  const date = iso ? new Date(iso) : null;
  if (!date || Number.isNaN(date.getTime())) return '—';
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}
