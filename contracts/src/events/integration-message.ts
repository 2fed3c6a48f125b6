import type { RecordedEvent } from './event-envelope';
import { streamCategory } from './event-envelope';

/**
 * An event as it leaves the platform (Kafka, desktop hosts): everything a consumer needs,
 * nothing it must not see. No ip or user agent, and no field whose name says it is a
 * secret, at any depth.
 */
export interface IntegrationMessage {
  eventId: string;
  type: string;
  schemaVersion: number;
  streamId: string;
  streamVersion: number;
  position: number;
  occurredAt: string;
  correlationId: string;
  causationId: string | null;
  actor: { userId: string | null; isStaff: boolean };
  data: unknown;
}

const SECRET_FIELD = /password|secret|token|hash/i;

export function toIntegrationMessage(event: RecordedEvent): IntegrationMessage {
  return {
    eventId: event.eventId,
    type: event.type,
    schemaVersion: event.schemaVersion,
    streamId: event.streamId,
    streamVersion: event.streamVersion,
    position: event.position,
    occurredAt: event.occurredAt.toISOString(),
    correlationId: event.metadata.correlationId,
    causationId: event.metadata.causationId,
    actor: { userId: event.metadata.actor.userId, isStaff: event.metadata.actor.isStaff },
    data: withoutSecrets(event.data),
  };
}

function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !SECRET_FIELD.test(key))
      .map(([key, inner]) => [key, withoutSecrets(inner)]),
  );
}

/** One topic per stream category, so consumers subscribe to what they care about. */
export function topicFor(streamId: string, prefix = 'meshwork'): string {
  return `${prefix}.${streamCategory(streamId)}`;
}

/** Kafka header names on every message. Consumers dedupe by the event id. */
export const HEADER_EVENT_ID = 'event-id';
export const HEADER_EVENT_TYPE = 'event-type';
