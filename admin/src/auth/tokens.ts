/**
 * The session's tokens, shared with the customer site: same origin, same localStorage keys
 * (spec section 3, "Stored locally"), so signing in on the site signs in on the console.
 */
const ACCESS_TOKEN_KEY = 'token';
const REFRESH_TOKEN_KEY = 'refreshToken';

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // storage blocked: the console then behaves as signed out
  }
}

export const tokens = {
  getAccess: (): string | null => storage()?.getItem(ACCESS_TOKEN_KEY) ?? null,
  getRefresh: (): string | null => storage()?.getItem(REFRESH_TOKEN_KEY) ?? null,
  /** Refresh tokens rotate, so both are always replaced together. */
  save(access: string, refresh: string): void {
    storage()?.setItem(ACCESS_TOKEN_KEY, access);
    storage()?.setItem(REFRESH_TOKEN_KEY, refresh);
  },
  clear(): void {
    storage()?.removeItem(ACCESS_TOKEN_KEY);
    storage()?.removeItem(REFRESH_TOKEN_KEY);
  },
};
