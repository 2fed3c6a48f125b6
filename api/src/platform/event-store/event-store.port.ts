import type { NewEvent, RecordedEvent } from '@meshwork/contracts';

/**
 * What the writer believes the stream's version is: a number (0 = the stream must not
 * exist yet) or 'any' to append without a check.
 */
export type ExpectedVersion = number | 'any';

/**
 * A value that must be unique across all streams (an email, a username, a plan slug).
 * Claimed and released in the same transaction as the append, so no read-then-write race.
 */
export interface UniqueValue {
  scope: string;
  value: string;
}

export interface AppendOptions {
  claim?: UniqueValue[];
  release?: UniqueValue[];
}

export interface AppendResult {
  /** The stream's version after the append: pass it as expectedVersion next time. */
  nextExpectedVersion: number;
  /** Global positions of the appended events, in order. */
  positions: number[];
  /** True when every event id was already in the stream and nothing was written. */
  alreadyAppended: boolean;
}

export const EVENT_STORE = Symbol('EventStore');

/**
 * The event store port. Implementations: PostgreSQL (here); KurrentDB later, through the
 * same contract suite (`testing/event-store.contract.ts`).
 */
export interface EventStore {
  /**
   * Appends events to one stream atomically.
   * @throws WrongExpectedVersionError when the stream is not at `expectedVersion`.
   * @throws UniqueValueTakenError when a claimed value belongs to another stream.
   * Appending events whose ids are all already in the stream succeeds and writes nothing.
   */
  append(streamId: string, events: NewEvent[], expectedVersion: ExpectedVersion, options?: AppendOptions): Promise<AppendResult>;

  /** A stream's events in stream order, from `fromVersion` (inclusive, default 1). */
  readStream(streamId: string, fromVersion?: number): Promise<RecordedEvent[]>;

  /**
   * A stream's version (its last event's streamVersion; 0 when it does not exist), without
   * reading its events: what a writer passes as expectedVersion when only the count matters.
   */
  streamVersion(streamId: string): Promise<number>;

  /**
   * Up to `limit` events with position greater than `afterPosition`, in global order.
   * Never returns an event while an earlier one may still commit: a catch-up reader that
   * moves its checkpoint to the last position returned never misses an event.
   */
  readAll(afterPosition: number, limit: number): Promise<RecordedEvent[]>;

  /** The stream holding a unique value, or null: sign-in finds an account by its email this way. */
  ownerOf(value: UniqueValue): Promise<string | null>;

  /** The highest position in the log (0 when empty). */
  headPosition(): Promise<number>;

  /** Resolves when something may have been appended since; `signal` cancels the wait. */
  waitForAppend(timeoutMs: number): Promise<void>;
}
