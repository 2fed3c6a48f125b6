import { memoryTokenStore, storageTokenStore, type TokenStore } from './token-store';

function localStorageOrNull(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // storage disabled by the browser: the session then lasts until the tab closes
  }
}

const storage = localStorageOrNull();

/** The session's tokens in this browser: localStorage keys `token` and `refreshToken`. */
export const browserTokens: TokenStore = storage ? storageTokenStore(storage) : memoryTokenStore();
