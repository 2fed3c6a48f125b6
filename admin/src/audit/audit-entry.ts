import type { AuditEntry } from '@meshwork/contracts';

export type { AuditEntry };

/** Who did it: the actor's email ('erased user' once erased), or null for the system itself. */
export const actorEmailOf = (entry: AuditEntry): string | null => entry.actor?.email ?? null;

/** One line of an entry's details, "key: value, …", cut at `max` characters; the whole stays one click away. */
export function detailsSummaryOf(details: Record<string, unknown>, max = 80): string {
  const line = Object.entries(details)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The details in full, indented, for reading. */
export const detailsTextOf = (details: Record<string, unknown>): string => JSON.stringify(details, null, 2);
