// First: schemas are built as their modules load, and must be built without eval.
import './app/zod-without-eval';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router';
import { App, sendExpiredSessionsToLogin } from './app/app';
import { installGlobalErrorToasts } from './app/global-error-toasts';
import { takePrerenderedState } from './app/prerendered-state';
import { createQueryClient } from './app/query-client';
import { routes } from './app/routes';
import './index.css';

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

async function start(): Promise<void> {
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element');
  installGlobalErrorToasts();

  const queryClient = createQueryClient();
  // The build prerenders the public pages (scripts/prerender.mjs); other paths get the empty shell.
  const prerendered = container.hasChildNodes();
  if (prerendered) takePrerenderedState(queryClient, document);
  await loadMatchedRoutes(routes, window.location);
  const router = createBrowserRouter(routes);
  sendExpiredSessionsToLogin(router, queryClient);

  const app = (
    <StrictMode>
      <App router={router} queryClient={queryClient} />
    </StrictMode>
  );
  // Not as a transition, though that would yield to the browser while it works: a link clicked
  // meanwhile was lost (the footer's Contact Sales on /pricing, in web/e2e/contact.e2e.spec.ts).
  if (prerendered) hydrateRoot(container, app);
  else createRoot(container).render(app);
}

void start();
