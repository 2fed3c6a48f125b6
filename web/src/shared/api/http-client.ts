import type { RefreshResponse } from '@meshwork/contracts';
import type { TokenStore } from '../session/token-store';
import { ApiError } from './api-error';
import type { ErrorLog } from './error-log';

/** Spec section 9: every call gives up after 30 seconds. */
export const REQUEST_TIMEOUT_MS = 30_000;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  method?: HttpMethod;
  body?: unknown;
  /** Cancels the call, as TanStack Query does when a query is no longer wanted. */
  signal?: AbortSignal;
  /** Send the bearer token (default). Off for calls made before there is a session: login, register, reset. */
  auth?: boolean;
  /** On a first 401, refresh the token and retry once. Defaults to `auth`; logout turns it off. */
  refreshOnUnauthorized?: boolean;
  /**
   * `stream` for files (the desktop installer): a successful answer is returned as the fetch
   * `Response` once its headers arrive, its body still unread, so the caller can follow the
   * transfer. The timeout covers only the wait for the headers; `signal` can still cancel the
   * body. Errors are still read as JSON.
   */
  responseType?: 'json' | 'stream';
}

export interface ApiClientOptions {
  /** Everything before the call path, e.g. `/api/v1` or `http://127.0.0.1:3000/api/v1`. */
  baseUrl: string;
  tokens: TokenStore;
  timeoutMs?: number;
  /** Called once the session is gone for good (refresh failed or impossible); the tokens are already cleared. */
  onSessionExpired?: () => void;
  errorLog?: ErrorLog;
}

export interface ApiClient {
  request<T>(path: string, options?: RequestOptions): Promise<T>;
  get<T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>): Promise<T>;
  post<T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>): Promise<T>;
  patch<T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>): Promise<T>;
}

class TimeoutSignal extends Error {}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The one client every call goes through: bearer token, cookies, a timeout, the error
 * catalogue, and the refresh-and-retry-once rule of spec section 4.
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const { baseUrl, tokens, timeoutMs = REQUEST_TIMEOUT_MS, onSessionExpired, errorLog } = options;
  // One refresh at a time: refresh tokens rotate, so two parallel refreshes would spend the same token twice.
  let refreshing: Promise<boolean> | null = null;

  async function send(
    path: string,
    method: HttpMethod,
    body: unknown,
    token: string | null,
    signal?: AbortSignal,
    responseType: RequestOptions['responseType'] = 'json',
  ) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new TimeoutSignal()), timeoutMs);
    const forwardAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', forwardAbort, { once: true });
    let streaming = false;
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (token) headers.Authorization = `Bearer ${token}`;
    try {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'include',
        signal: controller.signal,
      });
      streaming = responseType === 'stream' && response.ok;
      return { status: response.status, ok: response.ok, body: streaming ? response : parseBody(await response.text()) };
    } catch (error) {
      if (controller.signal.reason instanceof TimeoutSignal) throw ApiError.timeout();
      if (signal?.aborted) throw error; // the caller cancelled: not a failure to report
      throw ApiError.network();
    } finally {
      clearTimeout(timer);
      // A streamed body is still arriving: the caller's signal must go on reaching it.
      if (!streaming) signal?.removeEventListener('abort', forwardAbort);
    }
  }

  async function refreshTokens(): Promise<boolean> {
    const refresh = tokens.getRefresh();
    if (refresh) {
      try {
        const result = await send('/refresh/', 'POST', { refresh }, null);
        const pair = result.body as Partial<RefreshResponse> | undefined;
        if (result.ok && pair?.access) {
          tokens.save(pair.access, pair.refresh ?? refresh);
          return true;
        }
      } catch {
        // A refresh that cannot reach the server ends the session like a refused one.
      }
    }
    tokens.clear();
    onSessionExpired?.();
    return false;
  }

  function refreshOnce(): Promise<boolean> {
    refreshing ??= refreshTokens().finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  async function request<T>(path: string, requestOptions: RequestOptions = {}): Promise<T> {
    const { method = 'GET', body, signal, auth = true, refreshOnUnauthorized = auth, responseType } = requestOptions;
    try {
      const sentToken = auth ? tokens.getAccess() : null;
      let result = await send(path, method, body, sentToken, signal, responseType);
      if (result.status === 401 && refreshOnUnauthorized) {
        // Another call may already have refreshed while this one was in flight.
        const renewed = tokens.getAccess() !== sentToken && tokens.getAccess() !== null ? true : await refreshOnce();
        if (renewed) result = await send(path, method, body, tokens.getAccess(), signal, responseType);
      }
      if (!result.ok) throw ApiError.fromResponse(result.status, result.body);
      return result.body as T;
    } catch (error) {
      if (error instanceof ApiError) errorLog?.record(method, path, error);
      throw error;
    }
  }

  return {
    request,
    get: (path, opts) => request(path, { ...opts, method: 'GET' }),
    post: (path, body, opts) => request(path, { ...opts, method: 'POST', body }),
    patch: (path, body, opts) => request(path, { ...opts, method: 'PATCH', body }),
  };
}
