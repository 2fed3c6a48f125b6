/**
 * The audit trail's filters as the Audit screen keeps them: in the page's address, so a link
 * shows the same entries to whoever opens it. Times are ISO instants there and in the api's
 * query; the date-time inputs show them in the browser's time zone.
 */
export const AUDIT_FILTERS = ['actor', 'action', 'resource_type', 'resource_id', 'correlation_id', 'from', 'to'] as const;
export type AuditFilterName = (typeof AUDIT_FILTERS)[number];
export type AuditFilterValues = Partial<Record<AuditFilterName, string>>;

/** The stream categories of the event log (`<category>-<id>`), the api's resource types. */
export const RESOURCE_TYPES = [
  'user',
  'plan',
  'subscription',
  'payment',
  'model',
  'release',
  'downloads',
  'networks',
  'device',
  'devicecode',
  'preferences',
  'projection',
  'consoleerror',
] as const;

/** The known filters of an address's query, trimmed, empty ones left out. */
export function filterOfSearch(search: URLSearchParams): AuditFilterValues {
  const filter: AuditFilterValues = {};
  for (const name of AUDIT_FILTERS) {
    const value = search.get(name)?.trim();
    if (value) filter[name] = value;
  }
  return filter;
}

/** A query string of the filter's non-empty values (and a page's cursor and size, for the api). */
export function auditQueryOf(filter: AuditFilterValues, page: { cursor?: number; limit?: number } = {}): string {
  const query = new URLSearchParams();
  for (const name of AUDIT_FILTERS) {
    const value = filter[name]?.trim();
    if (value) query.set(name, value);
  }
  if (page.cursor !== undefined) query.set('cursor', String(page.cursor));
  if (page.limit !== undefined) query.set('limit', String(page.limit));
  return query.toString();
}

/** Where the Audit screen shows these entries: `/audit?…`, a path inside the console. */
export const auditLinkOf = (filter: AuditFilterValues): string => {
  const query = auditQueryOf(filter);
  return query ? `/audit?${query}` : '/audit';
};

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO instant as a datetime-local input shows it ("2025-01-31T14:05", the browser's time zone); '' when it is none. */
export function localInputOf(iso: string | undefined): string {
  const date = iso ? new Date(iso) : null;
  if (!date || Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A datetime-local input's value (the browser's time zone) as an ISO instant; '' when it is empty or not a time. */
export function isoOfLocalInput(local: string): string {
  const date = local ? new Date(local) : null;
  return date && !Number.isNaN(date.getTime()) ? date.toISOString() : '';
}
