import { fetchUtils, HttpError } from 'react-admin';
import { API_BASE } from './site-urls';
import { tokens } from './tokens';

interface TokenPair {
  access?: string;
  refresh?: string;
}

let refreshing: Promise<boolean> | null = null;

async function exchangeRefreshToken(): Promise<boolean> {
  const refresh = tokens.getRefresh();
  if (refresh) {
    try {
      const response = await fetch(`${API_BASE}/refresh/`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ refresh }),
      });
      const pair = response.ok ? ((await response.json()) as TokenPair) : null;
      if (pair?.access) {
        tokens.save(pair.access, pair.refresh ?? refresh);
        return true;
      }
    } catch {
      // A refresh that cannot reach the server ends the session like a refused one.
    }
  }
  tokens.clear();
  return false;
}

/**
 * Trades the refresh token for a new pair, or clears both tokens when that fails (spec
 * section 4). One exchange at a time: refresh tokens rotate, so two parallel exchanges
 * would spend the same token twice and the second would end the session.
 */
export function refreshSession(): Promise<boolean> {
  refreshing ??= exchangeRefreshToken().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

function withBearer(options: fetchUtils.Options, token: string | null): fetchUtils.Options {
  return token ? { ...options, user: { authenticated: true, token: `Bearer ${token}` } } : options;
}

/**
 * `fetchJson` with the bearer token. On a first 401 it refreshes the token once and retries;
 * a second 401 (or a failed refresh) reaches react-admin, whose `checkError` ends the session.
 */
export async function authorizedFetch(url: string, options: fetchUtils.Options = {}) {
  const sent = tokens.getAccess();
  try {
    return await fetchUtils.fetchJson(url, withBearer(options, sent));
  } catch (error) {
    if (!(error instanceof HttpError) || error.status !== 401) throw error;
    // Another call may have refreshed while this one was in flight.
    const current = tokens.getAccess();
    const renewed = (current !== null && current !== sent) || (await refreshSession());
    if (!renewed) throw error;
    return fetchUtils.fetchJson(url, withBearer(options, tokens.getAccess()));
  }
}
