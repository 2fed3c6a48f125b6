import type { ResourceStateQuery } from '@meshwork/contracts';
import type { AuditEntry } from './audit-entry';

/** The resource types the api can replay (GET /admin-panel/audit/state/{type}/{id}/); the others have no decider to fold with. */
export const REPLAYABLE_TYPES: readonly string[] = [
  'user',
  'plan',
  'subscription',
  'payment',
  'preferences',
  'model',
  'release',
  'downloads',
  'networks',
  'device',
];

/**
 * A point of a resource's history to replay it up to: one of its audit entries (its log
 * position), a time typed in (an ISO instant, '' until it is a valid one), or now.
 */
export type LogPoint = { kind: 'entry'; entry: AuditEntry } | { kind: 'time'; iso: string } | { kind: 'now' };

/** The api's name for the point: a position or an ISO time; undefined for now, which the api takes as the default. */
export function pointParam(point: LogPoint): string | undefined {
  if (point.kind === 'entry') return String(point.entry.position);
  return point.kind === 'time' ? point.iso : undefined;
}

/** Whether `a` comes after `b` in the log. An entry at the very time typed is taken in by it, so it counts as earlier. */
export function isLater(a: LogPoint, b: LogPoint): boolean {
  if (a.kind === 'now') return b.kind !== 'now';
  if (b.kind === 'now') return false;
  if (a.kind === 'entry' && b.kind === 'entry') return a.entry.position > b.entry.position;
  const time = (point: LogPoint) => Date.parse(point.kind === 'entry' ? point.entry.timestamp : point.kind === 'time' ? point.iso : '');
  const [at, bt] = [time(a), time(b)];
  return at > bt || (at === bt && a.kind === 'time' && b.kind === 'entry');
}

/**
 * The api's query for viewing `asOf`, compared with `compareTo` when given. The api counts the
 * changes from compare_to to as_of, so the later point always goes as as_of and the changes
 * read before → after whichever order the points were picked in; `swapped` says that the
 * picked as-of point came back as compare_to.
 */
export function stateQueryOf(asOf: LogPoint, compareTo: LogPoint | null): { query: ResourceStateQuery; swapped: boolean } {
  const swapped = compareTo !== null && isLater(compareTo, asOf);
  const [later, earlier] = swapped ? [compareTo, asOf] : [asOf, compareTo];
  const query: ResourceStateQuery = {};
  const laterParam = pointParam(later);
  const earlierParam = earlier ? pointParam(earlier) : undefined;
  if (laterParam !== undefined) query.as_of = laterParam;
  if (earlierParam !== undefined) query.compare_to = earlierParam;
  return { query, swapped };
}

/** Whether a point can be asked for yet: a time must have been typed in full. */
export const isComplete = (point: LogPoint | null): boolean => point === null || point.kind !== 'time' || point.iso !== '';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A state's fields by dotted path, as the api names changed fields; lists stay whole, an empty object stays a row. */
export function stateRowsOf(state: unknown, path = ''): { path: string; value: unknown }[] {
  if (isRecord(state) && (Object.keys(state).length > 0 || path === '')) {
    return Object.keys(state)
      .sort()
      .flatMap((key) => stateRowsOf(state[key], path ? `${path}.${key}` : key));
  }
  return [{ path, value: state }];
}

/** A value as the tables show it: strings as they are, anything else as JSON, a dash where there is none. */
export function valueTextOf(value: unknown): string {
  if (value === undefined) return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
