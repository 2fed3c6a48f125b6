/**
 * How long a test waits for a state before it fails. Generous, because a loaded machine (two
 * cores, other suites running) can take seconds for what takes milliseconds alone; well
 * inside Jest's 60 s testTimeout, so the failure is this helper's message, not a timeout.
 */
export const EVENTUALLY_MS = 30_000;

/** The pause between probes: short, since each probe is the real wait. */
const PAUSE_MS = 50;

/**
 * Polls `probe` until it returns true: the way a test waits for a state (another process,
 * instance or runner catching up), never for a fixed time. A probe that throws (tables not
 * there yet, a refused connection) counts as "not yet". Fails naming `what`, and the probe's
 * last error, only after `timeoutMs` (EVENTUALLY_MS unless the wait is known to be longer).
 */
export async function eventually(probe: () => Promise<boolean>, what?: string): Promise<void>;
export async function eventually(probe: () => Promise<boolean>, timeoutMs: number, what?: string): Promise<void>;
export async function eventually(probe: () => Promise<boolean>, timeoutOrWhat?: number | string, what = 'condition'): Promise<void> {
  const timeoutMs = typeof timeoutOrWhat === 'number' ? timeoutOrWhat : EVENTUALLY_MS;
  const waitingFor = typeof timeoutOrWhat === 'string' ? timeoutOrWhat : what;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    lastError = null;
    try {
      if (await probe()) return;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const cause =
        lastError === null ? '' : ` (the probe last threw: ${lastError instanceof Error ? lastError.message : String(lastError)})`;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${waitingFor}${cause}`);
    }
    await new Promise((r) => setTimeout(r, PAUSE_MS));
  }
}
