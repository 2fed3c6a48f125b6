import type { RecordedEvent } from '@meshwork/contracts';

/**
 * Which events a point of the log takes in (replay, issue 15 §2): a position counts the events
 * at or before it, a time (ISO 8601) those that happened by then. Replays stop at the first
 * event refused, so the state is always that of a prefix of the log.
 */
export function eventsUpTo(point: string): (event: RecordedEvent) => boolean {
  if (/^\d+$/.test(point)) return (event) => event.position <= Number(point);
  const time = Date.parse(point);
  if (Number.isNaN(time)) throw new Error(`${point} is neither a log position nor a time`);
  return (event) => event.occurredAt.getTime() <= time;
}
