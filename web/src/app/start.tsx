// First: schemas are built as their modules load, and must be built without eval.
import './zod-without-eval';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router';
import { App, sendExpiredSessionsToLogin } from './app';
import type { EarlyInput } from './early-input';
import { installGlobalErrorToasts } from './global-error-toasts';
import { takePrerenderedState } from './prerendered-state';
import { createQueryClient } from './query-client';
import { routes } from './routes';
import { yieldToBrowser } from './yield-to-browser';

/**
 * Loads the lazy routes this address matches before the router starts. Otherwise the router's
 * first render is its loading fallback, which neither matches a prerendered page nor looks like
 * one. If a chunk cannot load, the router tries again itself and shows its error screen.
 */
async function loadMatchedRoutes(routes: RouteObject[], location: Location): Promise<void> {
  const pending = (matchRoutes(routes, location) ?? []).filter(({ route }) => route.lazy);
  await Promise.all(
    pending.map(async ({ route }) => {
      const loaded = await (route.lazy as () => Promise<Partial<RouteObject>>)();
      Object.assign(route, loaded, { lazy: undefined });
    }),
  ).catch(() => undefined);
}

/**
 * Starts the site in the page: hydrates a prerendered page, renders the shell's. What the
 * visitor did to a prerendered page before this is done again once it is hydrated.
 */
export async function start(earlyInput?: EarlyInput): Promise<void> {
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element');
  // Each step below in a task of its own, apart from this module's evaluation too.
  await yieldToBrowser();
  installGlobalErrorToasts();
  const queryClient = createQueryClient();
  // The build prerenders the public pages (scripts/prerender.mjs); other paths get the empty shell.
  const prerendered = container.hasChildNodes();
  if (prerendered) takePrerenderedState(queryClient, document);
  await yieldToBrowser();
  await loadMatchedRoutes(routes, window.location);
  await yieldToBrowser();
  // Hydration data, though empty, tells the router the page was rendered ahead: it leaves the
  // scroll where the visitor has it rather than jumping to the top as the page wakes up.
  const router = createBrowserRouter(routes, prerendered ? { hydrationData: {} } : undefined);
  sendExpiredSessionsToLogin(router, queryClient);
  await yieldToBrowser();

  // Input stays held until the page itself is hydrated, not just the bar around it: React does
  // not reliably wake a part still asleep in its boundary (root-layout.tsx) for a click.
  const app = (
    <StrictMode>
      <App router={router} queryClient={queryClient} onPageAwake={earlyInput?.release} />
    </StrictMode>
  );
  if (!prerendered) {
    createRoot(container).render(app);
    return;
  }
  // As a transition, hydration yields to the browser every few milliseconds instead of holding
  // the page still.
  startTransition(() => void hydrateRoot(container, app));
}
