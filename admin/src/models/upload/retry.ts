/** A storage PUT that the store answered with an error status. */
export class PartPutError extends Error {
  constructor(readonly status: number) {
    super(`storage answered ${status} to a part upload`);
    this.name = 'PartPutError';
  }
}

const statusOf = (error: unknown): number | undefined =>
  typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number' ? error.status : undefined;

export const isAbort = (error: unknown): boolean => error instanceof DOMException && error.name === 'AbortError';

/**
 * Worth another try: the network dropped (fetch rejects with a TypeError), the server was
 * busy or failing, or, for a storage PUT, its presigned URL expired (403; a new one is
 * asked for on the next try). Refusals (400, 404...) are final.
 */
export function isRetryable(error: unknown): boolean {
  if (isAbort(error)) return false;
  if (error instanceof TypeError) return true;
  const status = statusOf(error);
  if (status === undefined) return false;
  if (error instanceof PartPutError && status === 403) return true;
  return status === 408 || status === 429 || status >= 500;
}

/** 1 s, 2 s, 4 s... capped at 30 s. */
export const backoffMs = (attempt: number): number => Math.min(30_000, 1000 * 2 ** (attempt - 1));

/**
 * Runs `operation` until it succeeds, a failure is final, or `maxAttempts` tries failed;
 * `wait` sits out the backoff between tries (and, in the browser, any time offline).
 */
export async function withRetry<T>(operation: () => Promise<T>, wait: (ms: number) => Promise<void>, maxAttempts = 8): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await operation();
    } catch (error) {
      if (attempt >= maxAttempts || !isRetryable(error)) throw error;
      await wait(backoffMs(attempt));
    }
  }
}

/** Sleeps `ms`, then until the browser is back online; rejects at once when `signal` aborts. */
export function waitForNetwork(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      window.removeEventListener('online', onOnline);
      reject(signal.reason instanceof Error ? signal.reason : new DOMException('Aborted', 'AbortError'));
    };
    const onOnline = () => {
      signal.removeEventListener('abort', onAbort);
      window.removeEventListener('online', onOnline);
      resolve();
    };
    const timer = setTimeout(() => {
      if (navigator.onLine) onOnline();
      else window.addEventListener('online', onOnline);
    }, ms);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}
