interface Scheduler {
  yield?: () => Promise<void>;
}

/**
 * Ends the current task, resuming in a new one: the browser can paint and answer input in
 * between. The site's start is a chain of steps that each take a phone tens of milliseconds;
 * run back to back in one task they would hold the page still for all of them at once.
 */
export function yieldToBrowser(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Scheduler }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
