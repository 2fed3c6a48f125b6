/**
 * Staff decisions about the log consumers (projections, the Kafka relay), kept in the log
 * like every other change: stream `projection-<consumer name>` (`decisionsStreamId` in
 * platform/projections/skip-decisions.ts, which the runners read).
 */
export type ProjectionOperationsEvent = {
  type: 'ProjectionEventSkipped';
  /** The consumer moves past this event without applying it; the actor and time are in the envelope. */
  data: { projection: string; position: number; eventId: string; eventType: string; reason: string };
};
