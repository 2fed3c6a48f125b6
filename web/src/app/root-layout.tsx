import { Suspense, useEffect } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { useSessionBootstrap } from '../shared/session/use-session';
import { Footer } from './footer';
import { NavBar } from './nav-bar';
import { PageAwake } from './page-awake';
import { titleOf } from './page-meta';

/** Apart from the layout, so the session's first answer re-renders this alone, not every page. */
function SessionBootstrap() {
  useSessionBootstrap();
  return null;
}

/** Every page: top bar, the route, footer. */
export function RootLayout() {
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = titleOf(pathname);
  }, [pathname]);
  return (
    <div className="flex min-h-screen flex-col">
      <SessionBootstrap />
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:shadow dark:focus:bg-slate-900"
      >
        Skip to content
      </a>
      <NavBar />
      <main id="main" className="flex-1">
        {/* A boundary of its own: a prerendered page wakes up after the top bar and footer, in a
            commit of its own, so a phone does the two halves in two tasks rather than one. */}
        <Suspense>
          <Outlet />
          <PageAwake />
        </Suspense>
      </main>
      <Footer />
      {/* Keyed by path: every fresh page load has the same location key, which would restore another page's scroll. */}
      <ScrollRestoration getKey={(location) => location.pathname} />
    </div>
  );
}
