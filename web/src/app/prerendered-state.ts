import { hydrate, type DehydratedState, type QueryClient } from '@tanstack/react-query';

/** The element a prerendered page carries the build's api answers in (JSON, never run as script). */
export const PRERENDERED_STATE_ID = 'prerendered-state';

/**
 * Starts the cache from the answers the page was prerendered with, so hydration renders what
 * the HTML shows, and marks them stale: they are as old as the build, so each is asked again
 * as the page mounts (a plan staff changed since shows at once).
 */
export function takePrerenderedState(queryClient: QueryClient, document: Document): void {
  const element = document.getElementById(PRERENDERED_STATE_ID);
  if (!element?.textContent) return;
  const state = JSON.parse(element.textContent) as DehydratedState;
  hydrate(queryClient, state);
  for (const { queryKey } of state.queries) void queryClient.invalidateQueries({ queryKey, refetchType: 'none' });
}
