import { browserTokens } from '../session/browser-tokens';
import { createErrorLog } from './error-log';
import { createApiClient } from './http-client';

/** Failed calls of this page load, the last 100, for support and debugging. */
export const errorLog = createErrorLog();

let sessionExpiredHandler: () => void = () => window.location.assign('/login');

/** The app decides what "go to /login" means (a router navigation that remembers the origin). */
export function setSessionExpiredHandler(handler: () => void): void {
  sessionExpiredHandler = handler;
}

/** The client every call of the site goes through (base `{api}/api/v1`). */
export const apiClient = createApiClient({
  baseUrl: `${import.meta.env.VITE_API_ORIGIN ?? ''}/api/v1`,
  tokens: browserTokens,
  onSessionExpired: () => sessionExpiredHandler(),
  errorLog,
});
