import { DeviceTokenAnswer, ErrorBody } from '@meshwork/contracts';
import type { z } from 'zod';

/** The api answered with an error: its status and the spec's error body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(body.message);
  }
}

/** The api could not be reached (no route, refused, timed out): the host is offline. */
export class ApiUnreachable extends Error {}

/** The device's tokens; `onRotate` keeps the new pair after each refresh (refresh tokens are single use). */
export interface DeviceTokens {
  access_token: string;
  refresh_token: string;
}

export interface RequestOptions<Schema extends z.ZodType> {
  method?: 'GET' | 'POST' | 'DELETE';
  body?: unknown;
  /** The answer's contract: an answer that does not pass it is an error, never trusted. */
  schema: Schema;
  /** Send the device's bearer token (default), or `token` for a one-off web session. */
  auth?: boolean | { token: string };
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 15_000;

function errorBody(status: number, raw: unknown): ErrorBody {
  const parsed = ErrorBody.safeParse(raw);
  return parsed.success ? parsed.data : { message: `The api answered HTTP ${status}` };
}

/**
 * The host's one way to call the api: JSON in and out, every answer checked against its
 * contract, and a 401 answered once by spending the refresh token (RFC 6749 §6). When the
 * refresh is refused the device has been signed out elsewhere (revoked, password changed):
 * `onSignedOut` tells the host.
 */
export class ApiClient {
  private refreshing: Promise<boolean> | null = null;

  constructor(
    readonly base: string,
    private tokens: DeviceTokens | null,
    private readonly hooks: { onRotate(tokens: DeviceTokens): Promise<void>; onSignedOut(reason: string): void },
  ) {}

  get accessToken(): string | null {
    return this.tokens?.access_token ?? null;
  }

  setTokens(tokens: DeviceTokens | null): void {
    this.tokens = tokens;
  }

  url(path: string): string {
    return `${this.base}/api/v1${path}`;
  }

  async request<Schema extends z.ZodType>(path: string, options: RequestOptions<Schema>): Promise<z.output<Schema>> {
    return this.parse(await this.authenticated(path, options), options.schema);
  }

  /**
   * The answer's exact text and its parsed value, for a body whose bytes are checked against a
   * hash (a model's manifest against the entitlement document's `manifest_sha256`).
   */
  async requestText<Schema extends z.ZodType>(
    path: string,
    options: RequestOptions<Schema>,
  ): Promise<{ text: string; value: z.output<Schema> }> {
    const response = await this.authenticated(path, options);
    const text = await response.clone().text();
    return { text, value: await this.parse(response, options.schema) };
  }

  private async authenticated(path: string, options: RequestOptions<z.ZodType>): Promise<Response> {
    const response = await this.send(path, options);
    if (response.status === 401 && (options.auth ?? true) === true && (await this.refresh())) return this.send(path, options);
    return response;
  }

  /** A raw authenticated fetch (the entitlement stream); refreshes once on 401 like `request`. */
  async open(path: string, init: { headers?: Record<string, string>; signal: AbortSignal }): Promise<Response> {
    const attempt = () => this.fetch(path, { headers: { ...init.headers, ...this.authorization(true) }, signal: init.signal });
    const response = await attempt();
    if (response.status !== 401 || !(await this.refresh())) return response;
    await response.body?.cancel();
    return attempt();
  }

  private authorization(auth: RequestOptions<z.ZodType>['auth']): Record<string, string> {
    if (auth === false) return {};
    const token = auth === true || auth === undefined ? this.tokens?.access_token : auth.token;
    return token ? { Authorization: `Bearer ${token}` } : {};
  }

  private send(path: string, options: RequestOptions<z.ZodType>): Promise<Response> {
    const json = options.body !== undefined;
    return this.fetch(path, {
      method: options.method ?? (json ? 'POST' : 'GET'),
      headers: { ...(json ? { 'Content-Type': 'application/json' } : {}), ...this.authorization(options.auth) },
      body: json ? JSON.stringify(options.body) : undefined,
      signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    });
  }

  private async fetch(path: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(this.url(path), init);
    } catch (error) {
      if (init.signal?.aborted && (init.signal.reason as Error | undefined)?.name === 'AbortError') throw error;
      throw new ApiUnreachable(`The api at ${this.base} cannot be reached: ${(error as Error).cause ?? (error as Error).message}`);
    }
  }

  private async parse<Schema extends z.ZodType>(response: Response, schema: Schema): Promise<z.output<Schema>> {
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      body = undefined;
    }
    if (!response.ok) throw new ApiError(response.status, errorBody(response.status, body));
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new ApiError(502, { message: `The api's answer to this host does not match its contract` });
    return parsed.data;
  }

  /** One refresh at a time, however many calls met the 401; false when the device is signed out. */
  private refresh(): Promise<boolean> {
    this.refreshing ??= this.spendRefreshToken().finally(() => (this.refreshing = null));
    return this.refreshing;
  }

  private async spendRefreshToken(): Promise<boolean> {
    const refreshToken = this.tokens?.refresh_token;
    if (!refreshToken) return false;
    try {
      const answer = await this.request('/devices/token/', {
        body: { grant_type: 'refresh_token', refresh_token: refreshToken },
        schema: DeviceTokenAnswer,
        auth: false,
      });
      this.tokens = { access_token: answer.access_token, refresh_token: answer.refresh_token };
      await this.hooks.onRotate(this.tokens);
      return true;
    } catch (error) {
      // Only a refusal signs the device out; an api that is down or failing is just offline.
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      this.tokens = null;
      this.hooks.onSignedOut(error.body.message);
      return false;
    }
  }
}
