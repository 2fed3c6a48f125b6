import { randomBytes, randomUUID } from 'node:crypto';
import type { AuthResponse, RefreshResponse } from '@meshwork/contracts';
import { type ApiProcess, startApiProcess } from '@meshwork/testkit/api/api-process.cjs';
import { TEST_PASSWORD } from '@meshwork/testkit/api/accounts';
import { required } from '@meshwork/testkit/infra';
import { ApiError, createApiClient, createErrorLog, memoryTokenStore, type TokenStore } from './site-api-client';

/** A call as it went over the wire: what the client sent, and what the api answered (JSON answers read). */
interface Call {
  method: string;
  path: string;
  authorization: string | null;
  body: unknown;
  status: number;
  answer: unknown;
}

/** An access token the api does not accept, as a stored one is once it has expired. */
const STALE_ACCESS = 'stale-access-token';

/**
 * The customer site's api client (web/src/shared/api/http-client.ts) against the real built
 * api, started as `npm start` runs it on a database of its own: the bearer token, refreshing
 * with rotating refresh tokens and retrying once, the end of a session, errors as the api words
 * them, a streamed installer. What the real api cannot be made to do on demand (no answer, a
 * timeout, a 429 without a body, a body cut off) is in src/shared/api/http-client.unit.spec.ts.
 */
describe('the site’s api client against the real built api', () => {
  let api: ApiProcess;
  const realFetch = globalThis.fetch;
  /** The client's calls in order; `onAnswer` runs before the client sees an answer. */
  let calls: Call[] = [];
  let onAnswer: ((call: Call) => Promise<void>) | null = null;

  beforeAll(async () => {
    api = await startApiProcess('test_site_api_client', required('DATABASE_URL'), { AUTH_RATE_LIMIT_PER_MINUTE: '1000' });
    // The client's fetch goes through unchanged; each call is noted on the way.
    globalThis.fetch = async (input, init) => {
      const response = await realFetch(input, init);
      const url = new URL(input instanceof Request ? input.url : String(input));
      const json = response.headers.get('Content-Type')?.includes('application/json');
      const call: Call = {
        method: init?.method ?? 'GET',
        path: url.pathname.replace('/api/v1', ''),
        authorization: new Headers(init?.headers).get('Authorization'),
        body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
        status: response.status,
        answer: json ? await response.clone().json() : undefined,
      };
      calls.push(call);
      await onAnswer?.(call);
      return response;
    };
  }, 120_000);

  afterEach(() => {
    calls = [];
    onAnswer = null;
  });

  afterAll(async () => {
    globalThis.fetch = realFetch;
    await api?.stop();
  }, 60_000);

  /** A newly registered customer, signed in (their first session's tokens). */
  async function register(): Promise<AuthResponse> {
    const name = randomUUID().slice(0, 8);
    const response = await realFetch(`${api.base}/register/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        email: `${name}@example.com`,
        username: `user_${name}`,
        password: TEST_PASSWORD,
        password_confirm: TEST_PASSWORD,
      }),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as AuthResponse;
  }

  /** Signs a session out on the api, as another tab would. */
  async function signOut(tokens: { access: string; refresh: string }): Promise<void> {
    const response = await realFetch(`${api.base}/logout/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${tokens.access}` },
      body: JSON.stringify({ refresh_token: tokens.refresh }),
    });
    expect(response.status).toBe(200);
  }

  function setup(tokens: { access?: string; refresh?: string } = {}) {
    const store: TokenStore = memoryTokenStore(tokens);
    const onSessionExpired = jest.fn();
    const errorLog = createErrorLog();
    const client = createApiClient({ baseUrl: api.base, tokens: store, onSessionExpired, errorLog });
    return { client, store, onSessionExpired, errorLog };
  }

  const trace = () => calls.map((c) => `${c.method} ${c.path} ${c.authorization ?? '-'} ${c.status}`);

  it('sends the bearer token and JSON, and returns the parsed answer', async () => {
    const ada = await register();
    const { client, store } = setup(ada.tokens);

    await expect(client.patch('/profile/', { first_name: 'Ada' })).resolves.toMatchObject({ id: ada.user.id, first_name: 'Ada' });
    expect(calls).toEqual([
      expect.objectContaining({
        method: 'PATCH',
        path: '/profile/',
        authorization: `Bearer ${ada.tokens.access}`,
        body: { first_name: 'Ada' },
        status: 200,
      }),
    ]);
    expect([store.getAccess(), store.getRefresh()]).toEqual([ada.tokens.access, ada.tokens.refresh]);
  });

  it('on a first 401 refreshes with the stored refresh token, keeps the rotated pair, and retries once', async () => {
    const ada = await register();
    const { client, store, onSessionExpired } = setup({ access: STALE_ACCESS, refresh: ada.tokens.refresh });

    await expect(client.get('/profile/')).resolves.toMatchObject({ id: ada.user.id });
    const renewed = calls[1]?.answer as RefreshResponse;
    expect(trace()).toEqual([
      `GET /profile/ Bearer ${STALE_ACCESS} 401`,
      'POST /refresh/ - 200',
      `GET /profile/ Bearer ${renewed.access} 200`,
    ]);
    expect(calls[1]?.body).toEqual({ refresh: ada.tokens.refresh });
    expect([store.getAccess(), store.getRefresh()]).toEqual([renewed.access, renewed.refresh]);
    expect(renewed.refresh).not.toBe(ada.tokens.refresh);
    expect(onSessionExpired).not.toHaveBeenCalled();
  });

  it('retries only once: a session ended between the refresh and the retry is an error, with no second refresh', async () => {
    const ada = await register();
    const { client, onSessionExpired } = setup({ access: STALE_ACCESS, refresh: ada.tokens.refresh });
    onAnswer = async (call) => {
      if (call.path === '/refresh/' && call.status === 200) await signOut(call.answer as RefreshResponse);
    };

    const error = await client.get('/profile/').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, type: 'authentication', message: 'Authentication required. Please log in.' });
    expect(calls.map((c) => `${c.path} ${c.status}`)).toEqual(['/profile/ 401', '/refresh/ 200', '/profile/ 401']);
    expect(onSessionExpired).not.toHaveBeenCalled();
  });

  it('when the refresh is refused, clears both tokens and ends the session', async () => {
    const ada = await register();
    await signOut(ada.tokens);
    const { client, store, onSessionExpired } = setup({ access: ada.tokens.access, refresh: ada.tokens.refresh });

    await expect(client.get('/profile/')).rejects.toMatchObject({ status: 401 });
    expect(calls.map((c) => `${c.path} ${c.status}`)).toEqual(['/profile/ 401', '/refresh/ 401']);
    expect([store.getAccess(), store.getRefresh()]).toEqual([null, null]);
    expect(onSessionExpired).toHaveBeenCalledTimes(1);
  });

  it('without a refresh token, clears the tokens and ends the session without calling refresh', async () => {
    const { client, store, onSessionExpired } = setup({ access: STALE_ACCESS });

    await expect(client.get('/profile/')).rejects.toMatchObject({ status: 401 });
    expect(calls.map((c) => `${c.path} ${c.status}`)).toEqual(['/profile/ 401']);
    expect(store.getAccess()).toBeNull();
    expect(onSessionExpired).toHaveBeenCalledTimes(1);
  });

  it('shares one refresh between calls that fail together, so a rotating refresh token is spent once', async () => {
    const ada = await register();
    const { client, store, onSessionExpired } = setup({ access: STALE_ACCESS, refresh: ada.tokens.refresh });

    // The api ends a session whose refresh token is spent twice: all three answering proves one refresh.
    const results = await Promise.all([client.get('/profile/'), client.get('/plan/'), client.get('/profile/')]);
    expect(results).toEqual([
      expect.objectContaining({ id: ada.user.id }),
      expect.objectContaining({ plan: 'free' }),
      expect.objectContaining({ id: ada.user.id }),
    ]);
    expect(calls.filter((c) => c.path === '/refresh/')).toHaveLength(1);
    expect(store.getRefresh()).toBe((calls.find((c) => c.path === '/refresh/')!.answer as RefreshResponse).refresh);
    expect(onSessionExpired).not.toHaveBeenCalled();
  });

  it('shows a wrong password at sign-in as the api words it, without a refresh, and leaves the stored session alone', async () => {
    const ada = await register();
    const { client, store, onSessionExpired } = setup({ refresh: ada.tokens.refresh });

    const error = await client
      .post('/login/', { email: ada.user.email, password: 'Wrong-password-1' }, { auth: false })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    // The api answers 400, not 401 (src/shared/api/http-client.unit.spec.ts holds a 401 here too).
    expect(error).toMatchObject({ status: 400, type: 'validation', message: 'Invalid email or password.' });
    expect(calls[0]?.answer).toEqual({ message: 'Invalid email or password.' });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.authorization).toBeNull();
    expect(store.getRefresh()).toBe(ada.tokens.refresh);
    expect(onSessionExpired).not.toHaveBeenCalled();
  });

  it('turns a failing answer into the catalogue error with its field errors, and logs it', async () => {
    const { client, errorLog } = setup();

    const error = await client
      .post('/register/', { email: 'not-an-email', username: 'x', password: 'short', password_confirm: 'other' }, { auth: false })
      .catch((e: unknown) => e);
    const answer = calls[0]?.answer as { message: string; errors: Record<string, string[]> };
    expect(Object.keys(answer.errors)).toEqual(expect.arrayContaining(['email', 'username', 'password', 'password_confirm']));
    expect(answer.errors.password!.length).toBeGreaterThan(1);
    // Every field with every message, and the api's own message first.
    expect(error).toMatchObject({ status: 400, type: 'validation', message: answer.message, fieldErrors: answer.errors });
    expect(errorLog.entries()).toEqual([expect.objectContaining({ method: 'POST', path: '/register/', status: 400, type: 'validation' })]);
  });

  it('streams the installer when asked: headers first, body readable after; a failed answer is still a catalogue error', async () => {
    const ada = await register();
    const { client } = setup(ada.tokens);
    const installerPath = '/downloads/desktop-app/Meshwork-Desktop-v2.1.0.exe';
    await expect(client.request(installerPath, { responseType: 'stream' })).rejects.toMatchObject({
      status: 404,
      message: 'No Windows installer is available for download.',
    });

    const installer = Buffer.concat([Buffer.from('MZ'), randomBytes(64 * 1024)]);
    await publishRelease(await api.staffToken(), '2.1.0', installer);
    const response = await client.request<Response>(installerPath, { responseType: 'stream' });
    expect(response).toBeInstanceOf(Response);
    expect(response.bodyUsed).toBe(false);
    expect(response.headers.get('Content-Length')).toBe(String(installer.length));
    expect(response.headers.get('Content-Disposition')).toBe('attachment; filename="Meshwork-Desktop-v2.1.0.exe"');
    expect(Buffer.from(await response.arrayBuffer()).equals(installer)).toBe(true);
  });

  /** Staff upload a desktop release, then make it the stable, active one customers get. */
  async function publishRelease(staffToken: string, version: string, bytes: Buffer): Promise<void> {
    const form = new FormData();
    form.append('version', version);
    form.append('release_notes', `Release ${version}.`);
    form.append('file', new Blob([new Uint8Array(bytes)]), 'installer.exe');
    const headers = { Authorization: `Bearer ${staffToken}` };
    expect((await realFetch(`${api.base}/models/admin/releases/`, { method: 'POST', headers, body: form })).status).toBe(201);
    const activate = await realFetch(`${api.base}/models/admin/releases/${version}/`, {
      method: 'PATCH',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ is_stable: true, is_active: true }),
    });
    expect(activate.status).toBe(200);
  }
});
