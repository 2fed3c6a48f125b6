import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { RouterProvider, type createBrowserRouter } from 'react-router';
import { Toaster } from 'sonner';
// Sonner's rules as a file of ours: its own run-time <style> is dropped at build (vite.config.ts).
import 'sonner/dist/styles.css';
import { setSessionExpiredHandler } from '../shared/api/api-client';
import { endSession } from '../shared/session/session';
import { ThemeProvider, useTheme } from '../shared/theme/theme-provider';
import { MAX_VISIBLE_TOASTS, TOAST_DURATION } from '../shared/toast/notify';

export type BrowserRouter = ReturnType<typeof createBrowserRouter>;

/** Spec section 4: when the session cannot be renewed, forget the user and go to /login, remembering where they were. */
export function sendExpiredSessionsToLogin(router: BrowserRouter, queryClient: QueryClient): void {
  setSessionExpiredHandler(() => {
    endSession(queryClient);
    const { pathname, search, hash } = router.state.location;
    if (pathname !== '/login') void router.navigate('/login', { state: { from: { pathname, search, hash } } });
  });
}

function Toasts() {
  const { theme } = useTheme();
  return (
    <Toaster
      position="top-right"
      // Below the 64 px top bar, so a toast never hides the account menu.
      offset={{ top: 76, right: 16 }}
      visibleToasts={MAX_VISIBLE_TOASTS}
      duration={TOAST_DURATION.default}
      theme={theme}
      richColors
      closeButton
    />
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

export function App({ router, queryClient }: { router: BrowserRouter; queryClient: QueryClient }) {
  return (
    <SiteProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </SiteProviders>
  );
}
