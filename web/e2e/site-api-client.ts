/**
 * The customer site's api client (web/src/shared/api/http-client.ts), its token store and error
 * log, loaded as the site's own code. The site is an ES module package type-checked with its
 * own settings (bundler resolution); this folder is the root's CommonJS, checked with node16,
 * which cannot import it. So it is required at run time, and the part of its surface these
 * tests use is written here.
 */

export interface TokenStore {
  getAccess(): string | null;
  getRefresh(): string | null;
  save(access: string, refresh: string): void;
  clear(): void;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  auth?: boolean;
  responseType?: 'json' | 'stream';
}

export interface ApiClient {
  request<T>(path: string, options?: RequestOptions): Promise<T>;
  get<T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>): Promise<T>;
  post<T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>): Promise<T>;
  patch<T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>): Promise<T>;
}

export interface ErrorLog {
  entries(): { method: string; path: string; status?: number; code: string; type: string; message: string }[];
}

interface HttpClientModule {
  createApiClient(options: {
    baseUrl: string;
    tokens: TokenStore;
    timeoutMs?: number;
    onSessionExpired?: () => void;
    errorLog?: ErrorLog;
  }): ApiClient;
}

export const { createApiClient } = jest.requireActual<HttpClientModule>('../src/shared/api/http-client');
export const { memoryTokenStore } = jest.requireActual<{
  memoryTokenStore(initial?: { access?: string; refresh?: string }): TokenStore;
}>('../src/shared/session/token-store');
export const { createErrorLog } = jest.requireActual<{ createErrorLog(): ErrorLog }>('../src/shared/api/error-log');
export const { ApiError } = jest.requireActual<{ ApiError: abstract new (...args: never[]) => Error }>('../src/shared/api/api-error');
