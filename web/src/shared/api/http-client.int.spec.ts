import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { memoryTokenStore } from '../session/token-store';
import { ApiError, NO_RESPONSE_MESSAGE } from './api-error';
import { createErrorLog } from './error-log';
import { createApiClient } from './http-client';

// A real HTTP server on loopback: the client's fetch, headers, bodies and timeouts are exercised for real.
interface Seen {
  method: string;
  path: string;
  authorization?: string;
  body: unknown;
}
type Handler = (req: Seen, res: ServerResponse) => void;

let server: Server;
let baseUrl: string;
let handler: Handler;
let seen: Seen[] = [];

function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => resolve(text ? JSON.parse(text) : undefined));
  });
}

function json(res: ServerResponse, status: number, body?: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(body === undefined ? '' : JSON.stringify(body));
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const request: Seen = {
      method: req.method ?? '',
      path: (req.url ?? '').replace('/api/v1', ''),
      authorization: req.headers.authorization,
      body: await readBody(req),
    };
    seen.push(request);
    handler(request, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});

afterEach(() => {
  seen = [];
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A server whose access tokens are valid only when listed, and whose refresh rotates tokens. */
function tokenServer(options: { valid: string[]; refreshable: Record<string, { access: string; refresh: string }> }): Handler {
  return (req, res) => {
    if (req.path === '/refresh/') {
      const next = options.refreshable[(req.body as { refresh?: string }).refresh ?? ''];
      if (!next) return json(res, 401, { detail: 'Token is invalid or expired' });
      options.valid.push(next.access);
      return json(res, 200, next);
    }
    const token = req.authorization?.replace('Bearer ', '');
    if (!token || !options.valid.includes(token)) return json(res, 401, { detail: 'Given token not valid' });
    return json(res, 200, { id: 'u-1', username: 'ada', seenToken: token });
  };
}

function setup(tokens: { access?: string; refresh?: string } = {}, timeoutMs?: number) {
  const store = memoryTokenStore(tokens);
  const onSessionExpired = vi.fn();
  const errorLog = createErrorLog();
  const client = createApiClient({ baseUrl, tokens: store, onSessionExpired, errorLog, timeoutMs });
  return { client, store, onSessionExpired, errorLog };
}

describe('api client', () => {
  it('sends the bearer token and JSON, and returns the parsed answer', async () => {
    handler = (req, res) => json(res, 200, { echoed: req.body });
    const { client } = setup({ access: 'A1' });
    await expect(client.patch('/profile/', { username: 'ada' })).resolves.toEqual({ echoed: { username: 'ada' } });
    expect(seen).toEqual([{ method: 'PATCH', path: '/profile/', authorization: 'Bearer A1', body: { username: 'ada' } }]);
  });

  it('streams a file when asked: headers first, body readable after, a failed answer still a catalogue error', async () => {
    handler = (req, res) => {
      if (req.path === '/missing.exe') return json(res, 404, { message: 'No version available for download' });
      res.writeHead(200, {
        'Content-Type': 'application/octet-stream',
        'Content-Length': '4',
        'Content-Disposition': 'attachment; filename="x.exe"',
      });
      res.end(Buffer.from([0x4d, 0x5a, 0x00, 0xff]));
    };
    const { client } = setup({ access: 'A1' });
    const response = await client.request<Response>('/installer.exe', { responseType: 'stream' });
    expect(response).toBeInstanceOf(Response);
    expect(response.headers.get('Content-Length')).toBe('4');
    expect(response.headers.get('Content-Disposition')).toBe('attachment; filename="x.exe"');
    expect([...new Uint8Array(await response.arrayBuffer())]).toEqual([0x4d, 0x5a, 0x00, 0xff]);
    await expect(client.request('/missing.exe', { responseType: 'stream' })).rejects.toMatchObject({
      status: 404,
      message: 'No version available for download',
    });
  });

  it('lets the caller cancel a streamed body after the headers arrived', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': '1000' });
      res.write(Buffer.alloc(10)); // and never the rest
    };
    const { client } = setup({ access: 'A1' });
    const controller = new AbortController();
    const response = await client.request<Response>('/installer.exe', { responseType: 'stream', signal: controller.signal });
    const reading = response.arrayBuffer();
    controller.abort();
    await expect(reading).rejects.toThrow();
  });

  it('on a first 401 refreshes with the stored refresh token, keeps the rotated pair, and retries once', async () => {
    handler = tokenServer({ valid: [], refreshable: { R1: { access: 'A2', refresh: 'R2' } } });
    const { client, store, onSessionExpired } = setup({ access: 'A1', refresh: 'R1' });

    await expect(client.get('/profile/')).resolves.toMatchObject({ seenToken: 'A2' });
    expect(seen.map((r) => `${r.method} ${r.path} ${r.authorization ?? ''}`.trim())).toEqual([
      'GET /profile/ Bearer A1',
      'POST /refresh/',
      'GET /profile/ Bearer A2',
    ]);
    expect(seen[1]?.body).toEqual({ refresh: 'R1' });
    expect([store.getAccess(), store.getRefresh()]).toEqual(['A2', 'R2']);
    expect(onSessionExpired).not.toHaveBeenCalled();
  });

  it('retries only once: a second 401 is an error, with no second refresh', async () => {
    handler = (req, res) => (req.path === '/refresh/' ? json(res, 200, { access: 'A2', refresh: 'R2' }) : json(res, 401, {}));
    const { client, onSessionExpired } = setup({ access: 'A1', refresh: 'R1' });

    const error = await client.get('/profile/').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, type: 'authentication', message: 'Authentication required. Please log in.' });
    expect(seen.map((r) => r.path)).toEqual(['/profile/', '/refresh/', '/profile/']);
    expect(onSessionExpired).not.toHaveBeenCalled();
  });

  it('when the refresh is refused, clears both tokens and ends the session', async () => {
    handler = tokenServer({ valid: [], refreshable: {} });
    const { client, store, onSessionExpired } = setup({ access: 'A1', refresh: 'stale' });

    await expect(client.get('/profile/')).rejects.toMatchObject({ status: 401 });
    expect(seen.map((r) => r.path)).toEqual(['/profile/', '/refresh/']);
    expect([store.getAccess(), store.getRefresh()]).toEqual([null, null]);
    expect(onSessionExpired).toHaveBeenCalledTimes(1);
  });

  it('without a refresh token, clears the tokens and ends the session without calling refresh', async () => {
    handler = tokenServer({ valid: [], refreshable: {} });
    const { client, store, onSessionExpired } = setup({ access: 'A1' });

    await expect(client.get('/profile/')).rejects.toMatchObject({ status: 401 });
    expect(seen.map((r) => r.path)).toEqual(['/profile/']);
    expect(store.getAccess()).toBeNull();
    expect(onSessionExpired).toHaveBeenCalledTimes(1);
  });

  it('shares one refresh between calls that fail together, so a rotating refresh token is spent once', async () => {
    handler = tokenServer({ valid: [], refreshable: { R1: { access: 'A2', refresh: 'R2' } } });
    const { client, store } = setup({ access: 'A1', refresh: 'R1' });

    const results = await Promise.all([client.get('/profile/'), client.get('/plan/'), client.get('/profile/')]);
    expect(results).toEqual([
      expect.objectContaining({ seenToken: 'A2' }),
      expect.objectContaining({ seenToken: 'A2' }),
      expect.objectContaining({ seenToken: 'A2' }),
    ]);
    expect(seen.filter((r) => r.path === '/refresh/')).toHaveLength(1);
    expect(store.getRefresh()).toBe('R2');
  });

  it('does not refresh for sign-in calls: a 401 there is a wrong password, shown as the server says', async () => {
    handler = (_req, res) => json(res, 401, { message: 'Invalid email or password' });
    const { client, store, onSessionExpired } = setup({ refresh: 'R1' });

    await expect(client.post('/login/', { email: 'a@b.c', password: 'nope' }, { auth: false })).rejects.toMatchObject({
      status: 401,
      message: 'Invalid email or password',
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.authorization).toBeUndefined();
    expect(store.getRefresh()).toBe('R1');
    expect(onSessionExpired).not.toHaveBeenCalled();
  });

  it('turns a failing answer into the catalogue error with its field errors, and logs it', async () => {
    handler = (_req, res) => json(res, 400, { errors: { email: ['A user with that email already exists.'], username: ['Taken'] } });
    const { client, errorLog } = setup();

    const error = await client.post('/register/', {}, { auth: false }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 400,
      type: 'validation',
      message: 'A user with that email already exists.',
      fieldErrors: { email: ['A user with that email already exists.'], username: ['Taken'] },
    });
    expect(errorLog.entries()).toEqual([expect.objectContaining({ method: 'POST', path: '/register/', status: 400, type: 'validation' })]);
  });

  it('uses the status default on a 429 without a body', async () => {
    handler = (_req, res) => json(res, 429);
    const { client } = setup();
    await expect(client.post('/password-reset/', { email: 'a@b.c' }, { auth: false })).rejects.toMatchObject({
      status: 429,
      message: 'Too many requests. Please try again later.',
    });
  });

  it('reports no response as a network error with the connection message', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const client = createApiClient({ baseUrl: `http://127.0.0.1:${port}/api/v1`, tokens: memoryTokenStore() });

    await expect(client.get('/profile/')).rejects.toMatchObject({ type: 'network', code: 'NETWORK_ERROR', message: NO_RESPONSE_MESSAGE });
  });

  it('gives up after the timeout and classifies it as TIMEOUT', async () => {
    handler = () => undefined; // never answers
    const { client } = setup({}, 150);
    const started = Date.now();
    await expect(client.get('/profile/')).rejects.toMatchObject({ code: 'TIMEOUT', type: 'network', message: NO_RESPONSE_MESSAGE });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('lets a caller cancel without reporting a failure', async () => {
    handler = () => undefined;
    const { client, errorLog } = setup();
    const controller = new AbortController();
    const pending = client.get('/profile/', { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const error = await pending.catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ApiError);
    expect(errorLog.entries()).toEqual([]);
  });
});
