/**
 * The envelope every Meshwork event travels in. The event log is the audit log, so the
 * envelope alone answers "who did what, when, and because of what".
 */

/** Who caused a change. System work (projections, schedulers) has no user. */
export interface Actor {
  userId: string | null;
  isStaff: boolean;
  ip: string | null;
  userAgent: string | null;
  /** Set when an API token, not a signed-in session, made the request: the token's id (issue 35). */
  via?: 'api_token';
  tokenId?: string;
}

export interface EventMetadata {
  /** Shared by everything one request caused; also printed in the logs. */
  correlationId: string;
  /** The event or command id that directly caused this event, when there is one. */
  causationId: string | null;
  actor: Actor;
}

/** An event as a decider produces it, before it has a place in the log. */
export interface NewEvent<TType extends string = string, TData = unknown> {
  eventId: string;
  type: TType;
  schemaVersion: number;
  /** Time comes in with the command: deciders never read a clock. */
  occurredAt: Date;
  data: TData;
  metadata: EventMetadata;
}

/** An event as the log holds it. */
export interface RecordedEvent<TType extends string = string, TData = unknown> extends NewEvent<TType, TData> {
  streamId: string;
  /** 1 for a stream's first event. */
  streamVersion: number;
  /** Place in the one global order. Increasing, not dense: aborted appends leave holes. */
  position: number;
  recordedAt: Date;
}

export const SYSTEM_ACTOR: Actor = { userId: null, isStaff: false, ip: null, userAgent: null };

/** A stream's category is the part of its id before the first '-': `user-42` is in `user`. */
export function streamCategory(streamId: string): string {
  const dash = streamId.indexOf('-');
  return dash === -1 ? streamId : streamId.slice(0, dash);
}
