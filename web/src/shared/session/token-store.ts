/** Where the session's tokens live between page loads (spec section 3, "Stored locally"). */
export interface TokenStore {
  getAccess(): string | null;
  getRefresh(): string | null;
  /** Saves a new pair; refresh tokens rotate, so both are always replaced together. */
  save(access: string, refresh: string): void;
  clear(): void;
}

export const ACCESS_TOKEN_KEY = 'token';
export const REFRESH_TOKEN_KEY = 'refreshToken';

/** The TokenStore over a Storage (localStorage in the browser). */
export function storageTokenStore(storage: Storage): TokenStore {
  return {
    getAccess: () => storage.getItem(ACCESS_TOKEN_KEY),
    getRefresh: () => storage.getItem(REFRESH_TOKEN_KEY),
    save(access, refresh) {
      storage.setItem(ACCESS_TOKEN_KEY, access);
      storage.setItem(REFRESH_TOKEN_KEY, refresh);
    },
    clear() {
      storage.removeItem(ACCESS_TOKEN_KEY);
      storage.removeItem(REFRESH_TOKEN_KEY);
    },
  };
}

/** A TokenStore that lives only in memory: tests, and browsers where storage is blocked. */
export function memoryTokenStore(initial: { access?: string; refresh?: string } = {}): TokenStore {
  let access = initial.access ?? null;
  let refresh = initial.refresh ?? null;
  return {
    getAccess: () => access,
    getRefresh: () => refresh,
    save(a, r) {
      access = a;
      refresh = r;
    },
    clear() {
      access = null;
      refresh = null;
    },
  };
}
