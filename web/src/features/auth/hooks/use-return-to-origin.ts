import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';

const AUTH_PAGES = new Set(['/login', '/register', '/forgot-password', '/reset-password']);

/** Where a guard or an expired session sent the user from (`location.state.from`), if it is a page of this site. */
export function originFromState(state: unknown): string | null {
  const from = (state as { from?: { pathname?: unknown; search?: unknown; hash?: unknown } } | null)?.from;
  if (typeof from?.pathname !== 'string' || !from.pathname.startsWith('/') || from.pathname.startsWith('//')) return null;
  if (AUTH_PAGES.has(from.pathname)) return null;
  const search = typeof from.search === 'string' ? from.search : '';
  const hash = typeof from.hash === 'string' ? from.hash : '';
  return `${from.pathname}${search}${hash}`;
}

/**
 * `?next=/admin/users`: where the staff console (a separate app on this origin) sends a
 * signed-out visitor. Only paths on this origin count, never another site.
 */
export function originFromNext(search: string): string | null {
  const next = new URLSearchParams(search).get('next');
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.includes('\\')) return null;
  return AUTH_PAGES.has(new URL(next, 'http://site.invalid').pathname) ? null : next;
}

/** After signing in: back to the page the user came from, else the dashboard. */
export function useReturnToOrigin(): () => void {
  const navigate = useNavigate();
  const { state, search } = useLocation();
  return useCallback(() => {
    const target = originFromState(state) ?? originFromNext(search) ?? '/dashboard';
    // The console is another app: leave this one with a full page load.
    if (target === '/admin' || target.startsWith('/admin/')) window.location.assign(target);
    else void navigate(target, { replace: true });
  }, [navigate, state, search]);
}
