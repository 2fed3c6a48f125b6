/**
 * The contracts are built with no environment's types (tsconfig.json: `types: []`); every place
 * they run, browser or Node, has this timer.
 */
const timers = globalThis as unknown as { setTimeout(callback: () => void, ms: number): unknown };

/** Waits before the second and third try: a network that changed under the page settles within these. */
export const LOAD_RETRY_DELAYS_MS = [500, 1500];

/**
 * `load()` (a page's code, say), tried again after each delay while it fails: the browser fetches
 * a module that failed afresh at the next import. The site and the console load their pages so,
 * since a laptop's network can change under a page (Chromium then ends every request in flight).
 */
export async function loadPatiently<T>(load: () => Promise<T>, delaysMs: readonly number[] = LOAD_RETRY_DELAYS_MS): Promise<T> {
  for (const delay of delaysMs) {
    try {
      return await load();
    } catch {
      await new Promise<void>((resolve) => timers.setTimeout(resolve, delay));
    }
  }
  return load();
}
