import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { memoryTokenStore } from '../session/token-store';
import { ApiError, NO_RESPONSE_MESSAGE } from './api-error';
import { createErrorLog } from './error-log';
import { createApiClient, REQUEST_TIMEOUT_MS } from './http-client';

/*
 * What the real api cannot be made to do on demand: answer nothing, or a 429 without a body,
 * hold a call until it times out, or cut a body off. A stand-in server on loopback does it, so
 * the client's fetch, headers and aborts still run for real. Everything the real api can show
 * (tokens, refresh, sessions, its errors, a streamed installer) is in web/e2e/http-client.e2e.spec.ts.
 */
interface Seen {
  method: string;
  path: string;
  authorization?: string;
}
type Handler = (req: Seen, res: ServerResponse, raw: IncomingMessage) => void;

let server: Server;
let baseUrl: string;
let handler: Handler;
let seen: Seen[] = [];

function json(res: ServerResponse, status: number, body?: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(body === undefined ? '' : JSON.stringify(body));
}

/** A handler that holds every call without answering; resolves with the first one once it has arrived. */
function holdCalls(): Promise<{ res: ServerResponse; raw: IncomingMessage }> {
  return new Promise((resolve) => {
    handler = (_req, res, raw) => resolve({ res, raw });
  });
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const request: Seen = {
      method: req.method ?? '',
      path: (req.url ?? '').replace('/api/v1', ''),
      authorization: req.headers.authorization,
    };
    seen.push(request);
    req.resume(); // the body is not looked at
    handler(request, res, req);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});

afterEach(() => {
  vi.useRealTimers();
  seen = [];
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function setup(tokens: { access?: string; refresh?: string } = {}) {
  const store = memoryTokenStore(tokens);
  const onSessionExpired = vi.fn();
  const errorLog = createErrorLog();
  const client = createApiClient({ baseUrl, tokens: store, onSessionExpired, errorLog });
  return { client, store, onSessionExpired, errorLog };
}

describe('api client against a stand-in server', () => {
  it('does not refresh for sign-in calls: a 401 there is shown as the server says, and the session is left alone', async () => {
    // The real api answers a wrong password with 400; this holds the rule for a 401 to any call made without a session.
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

  it('gives up on a call the server holds once the 30-second timeout has passed, and classifies it as TIMEOUT', async () => {
    const held = holdCalls();
    // The client's clock only: the call and the server run for real, the 30 seconds pass at once.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { client, errorLog } = setup();
    let outcome: unknown = 'pending';
    const settled = client.get('/profile/').then(
      () => (outcome = 'answered'),
      (error: unknown) => (outcome = error),
    );
    const { res, raw } = await held;

    vi.advanceTimersByTime(REQUEST_TIMEOUT_MS - 1);
    await new Promise((resolve) => setImmediate(resolve)); // whatever the abort would have settled, it has
    expect(outcome).toBe('pending');

    vi.advanceTimersByTime(1);
    await settled;
    expect(outcome).toBeInstanceOf(ApiError);
    expect(outcome).toMatchObject({ code: 'TIMEOUT', type: 'network', message: NO_RESPONSE_MESSAGE });
    expect(errorLog.entries()).toEqual([expect.objectContaining({ method: 'GET', path: '/profile/', code: 'TIMEOUT' })]);
    // It gave up on its own: the server never answered, and the client hung up on it.
    expect(res.headersSent).toBe(false);
    await new Promise((resolve) => (raw.socket.destroyed ? resolve(undefined) : raw.socket.once('close', resolve)));
  });

  it('lets a caller cancel without reporting a failure', async () => {
    const held = holdCalls();
    const { client, errorLog } = setup();
    const controller = new AbortController();
    const pending = client.get('/profile/', { signal: controller.signal });
    await held; // the call is at the server, waiting
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ApiError);
    expect((error as Error).name).toBe('AbortError');
    expect(errorLog.entries()).toEqual([]);
  });

  it('lets the caller cancel a streamed body after the headers arrived', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': '1000' });
      res.write(Buffer.alloc(10)); // and never the rest
    };
    const { client } = setup({ access: 'A1' });
    const controller = new AbortController();
    const response = await client.request<Response>('/installer.exe', { responseType: 'stream', signal: controller.signal });
    expect(response.headers.get('Content-Length')).toBe('1000');
    const reading = response.arrayBuffer();
    controller.abort();
    await expect(reading).rejects.toThrow();
  });
});
