/** What one outside component reports to /health/system-status/. */
export interface ComponentHealth {
  /** 'off' means not configured in this mode, which is fine. */
  status: 'up' | 'down' | 'off';
  /** A required component that is down makes the whole service answer 503. */
  required: boolean;
  /** Which adapter is in use, e.g. 'embedded', 'smtp', 'outbox', 'simulated'. */
  mode: string;
  detail?: string;
  [extra: string]: unknown;
}

/** Runs a probe with a deadline; a hung dependency is a down one. */
export async function probe(check: () => Promise<void>, timeoutMs = 2_000): Promise<{ up: boolean; detail?: string; latencyMs: number }> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { up: true, latencyMs: Date.now() - started };
  } catch (error) {
    return { up: false, detail: (error as Error).message, latencyMs: Date.now() - started };
  } finally {
    clearTimeout(timer);
  }
}
