/** Base for every error the event store raises on purpose; mapped to HTTP in one filter. */
export abstract class EventStoreError extends Error {
  abstract readonly httpStatus: number;
}

/** Another writer changed the stream first: reload and decide again (HTTP 409). */
export class WrongExpectedVersionError extends EventStoreError {
  readonly httpStatus = 409;
  constructor(
    readonly streamId: string,
    readonly expectedVersion: number | 'any',
  ) {
    super(`Stream ${streamId} is not at version ${expectedVersion}: it was changed by someone else. Reload and try again.`);
    this.name = 'WrongExpectedVersionError';
  }
}

/** A value claimed as unique is held by another stream (HTTP 409). */
export class UniqueValueTakenError extends EventStoreError {
  readonly httpStatus = 409;
  constructor(
    readonly scope: string,
    readonly value: string,
  ) {
    super(`The ${scope} is already taken.`);
    this.name = 'UniqueValueTakenError';
  }
}

/** Some but not all of the event ids were already appended: a client bug (HTTP 422). */
export class PartialDuplicateAppendError extends EventStoreError {
  readonly httpStatus = 422;
  constructor(readonly streamId: string) {
    super(`Some of these events are already in stream ${streamId} and some are not.`);
    this.name = 'PartialDuplicateAppendError';
  }
}
