/** How a log consumer retries an event it cannot handle. */
export interface RetryOptions {
  /** Attempts before the consumer stops and reports itself stalled (default 10: about four minutes). */
  attempts?: number;
  /** Wait after the first failure; it doubles with each attempt (default 1 s). */
  firstDelayMs?: number;
  /** The longest wait between attempts (default 60 s). */
  maxDelayMs?: number;
  /** How often a failing consumer looks for a staff request to retry now (default 1 s). */
  pollMs?: number;
}

export const defaultRetry: Required<RetryOptions> = { attempts: 10, firstDelayMs: 1_000, maxDelayMs: 60_000, pollMs: 1_000 };

/** The wait after failed attempt number `attempt` (1, 2, ...): exponential, capped. */
export function backoffMs(attempt: number, options: Required<RetryOptions>): number {
  return Math.min(options.maxDelayMs, options.firstDelayMs * 2 ** Math.min(attempt - 1, 30));
}

/**
 * SQLSTATE classes that say something about the database or the connection, not about the
 * event: a connection exception, a rollback for serialisation or deadlock, resources, an
 * operator shutting the server down, a system error. Retrying later may well succeed.
 */
const TRANSIENT_SQLSTATE_CLASSES = new Set(['08', '40', '53', '57', '58']);

/** Socket-level failures from Node itself. */
const TRANSIENT_SYSTEM_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** Whether a PostgreSQL (pg) error is about reaching the database rather than about the event. */
export function isTransientPostgresError(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    return (code.length === 5 && TRANSIENT_SQLSTATE_CLASSES.has(code.slice(0, 2))) || TRANSIENT_SYSTEM_CODES.has(code);
  }
  // pg's own words when the server goes away mid-query.
  return typeof message === 'string' && /Connection terminated|connection timeout|Client has encountered a connection error/i.test(message);
}
