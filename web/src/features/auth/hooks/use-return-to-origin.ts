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

/** After signing in: back to the page the user came from, else the dashboard. */
export function useReturnToOrigin(): () => void {
  const navigate = useNavigate();
  const { state } = useLocation();
  return useCallback(() => void navigate(originFromState(state) ?? '/dashboard', { replace: true }), [navigate, state]);
}
