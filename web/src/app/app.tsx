import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { RouterProvider, type createBrowserRouter } from 'react-router';
import { setSessionExpiredHandler } from '../shared/api/api-client';
import { endSession } from '../shared/session/session';
import { ThemeProvider } from '../shared/theme/theme-provider';
import { loadSonner, onSonnerRequested, sonnerRequested } from '../shared/toast/notify';
import { PageAwakeContext } from './page-awake';

export type BrowserRouter = ReturnType<typeof createBrowserRouter>;

/** Spec section 4: when the session cannot be renewed, forget the user and go to /login, remembering where they were. */
export function sendExpiredSessionsToLogin(router: BrowserRouter, queryClient: QueryClient): void {
  setSessionExpiredHandler(() => {
    endSession(queryClient);
    const { pathname, search, hash } = router.state.location;
    if (pathname !== '/login') void router.navigate('/login', { state: { from: { pathname, search, hash } } });
  });
}

const Toaster = lazy(() => import('./toaster').then((m) => ({ default: m.Toaster })));

/** Runs `task` when the browser has nothing else to do (or after a second, where it cannot say). */
function whenIdle(task: () => void): () => void {
  if ('requestIdleCallback' in window) {
    const id = requestIdleCallback(task, { timeout: 3000 });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(task, 1000);
  return () => clearTimeout(id);
}

/** The toaster, mounted with the first toast or once the page has settled (shared/toast/notify.ts). */
function Toasts() {
  const requested = useSyncExternalStore(onSonnerRequested, sonnerRequested, () => false);
  useEffect(() => whenIdle(() => void loadSonner().catch(() => undefined)), []);
  if (!requested) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}

/**
 * The customer site around its router: the browser's (App) or the build's static one
 * (entry-server.tsx), so a prerendered page and its hydration render the same tree.
 * Composes the features; features never import each other.
 */
export function SiteProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <ThemeProvider>
      <QueryClientProvider client={queryClient}>
        {children}
        <Toasts />
      </QueryClientProvider>
    </ThemeProvider>
  );
}

interface AppProps {
  router: BrowserRouter;
  queryClient: QueryClient;
  /** Called once the page is rendered (or hydrated) and answering input (app/page-awake.tsx). */
  onPageAwake?: () => void;
}

export function App({ router, queryClient, onPageAwake }: AppProps) {
  return (
    <SiteProviders queryClient={queryClient}>
      <PageAwakeContext.Provider value={onPageAwake}>
        <RouterProvider router={router} />
      </PageAwakeContext.Provider>
    </SiteProviders>
  );
}
