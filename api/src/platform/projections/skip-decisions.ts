import type { EventStore } from '../event-store/event-store.port';
import { operationsStreamId } from '../../operations/domain/projection-operations.events';

/**
 * Whether staff decided to skip the event at `position` for this consumer: a
 * ProjectionEventSkipped event for exactly that position in the consumer's decision stream.
 * Read only when an event fails, so the log is the one place the decision lives.
 */
export async function skipDecided(store: EventStore, consumer: string, position: number): Promise<boolean> {
  const decisions = await store.readStream(operationsStreamId(consumer));
  return decisions.some((d) => d.type === 'ProjectionEventSkipped' && (d.data as { position?: unknown }).position === position);
}
