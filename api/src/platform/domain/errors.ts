/**
 * What kind of "no" the domain said. The kind is all the domain knows; which HTTP status it
 * becomes is decided once, in the exception filter (platform/http/all-exceptions.filter.ts).
 */
export type DomainErrorKind =
  | 'not_found'
  | 'conflict'
  /** Invalid input or a business rule refused it. */
  | 'rule_broken'
  | 'forbidden'
  /** No session, or it ended. */
  | 'unauthenticated'
  | 'too_many_requests'
  /** A dependency (storage, mail, the plan list) is down: try again later. */
  | 'unavailable';

/**
 * A rule of the domain said no. Carries its kind, the text the user sees when the throw
 * site has a more precise one than the spec's default for that kind, and optionally the
 * field it is about; the exception filter turns it into the error body.
 */
export class DomainError extends Error {
  /** For too_many_requests: when to try again, sent as `Retry-After`. */
  retryAfterSeconds?: number;

  constructor(
    readonly kind: DomainErrorKind,
    /** The user's text; without one the answer carries the spec's default for the status. */
    readonly detail?: string,
    readonly field?: string,
    /** An OAuth 2.0 error code (RFC 6749 §5.2, RFC 8628 §3.5): the body says it as `error`. */
    readonly oauthCode?: string,
  ) {
    // The kind stands in for a missing detail so logs and tests still read what went wrong.
    super(detail ?? kind.replace(/_/g, ' '));
    this.name = 'DomainError';
  }
}

/** Nothing there (or nothing the caller may know of): the spec's one "not found" text. */
export const notFound = (detail?: string) => new DomainError('not_found', detail);

/** The state changed under the request, or it clashes with something that exists. */
export const conflict = (detail: string, field?: string) => new DomainError('conflict', detail, field);

/** Invalid input, or a business rule refuses the request. */
export const ruleBroken = (detail: string, field?: string) => new DomainError('rule_broken', detail, field);

export const forbidden = (detail?: string) => new DomainError('forbidden', detail);

export const unauthenticated = (detail?: string) => new DomainError('unauthenticated', detail);

/** Too many attempts; `retryAfterSeconds` says when the caller may try again. */
export function tooManyRequests(detail: string | undefined, retryAfterSeconds: number): DomainError {
  const error = new DomainError('too_many_requests', detail);
  error.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return error;
}

export const unavailable = (detail?: string) => new DomainError('unavailable', detail);

/**
 * A token endpoint's refusal (RFC 6749 §5.2, RFC 8628 §3.5): invalid input, so a 400 whose
 * body carries the spec's `message` and OAuth's `error` and `error_description`.
 */
export const oauthError = (code: string, detail: string) => new DomainError('rule_broken', detail, undefined, code);
