import type { EventStore } from '../event-store/event-store.port';

/**
 * Where staff decisions about a log consumer live: the stream `projection-<consumer name>`.
 * The runtime reads them; the operations context writes them (its ProjectionEventSkipped).
 */
export const DECISIONS_STREAM_CATEGORY = 'projection';

/** The stream of decisions about one consumer. */
export function decisionsStreamId(consumer: string): string {
  return `${DECISIONS_STREAM_CATEGORY}-${consumer}`;
}

/**
 * Whether staff decided to skip the event at `position` for this consumer: a
 * ProjectionEventSkipped event for exactly that position in the consumer's decision stream.
 * Read only when an event fails, so the log is the one place the decision lives.
 */
export async function skipDecided(store: EventStore, consumer: string, position: number): Promise<boolean> {
  const decisions = await store.readStream(decisionsStreamId(consumer));
  return decisions.some((d) => d.type === 'ProjectionEventSkipped' && (d.data as { position?: unknown }).position === position);
}
