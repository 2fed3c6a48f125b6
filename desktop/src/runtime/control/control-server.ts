import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import {
  ErrorBody,
  type HostApiKeys,
  HostApiKeyCreate,
  HostApiKeyRevoke,
  type HostErrorBody,
  HostModelRequest,
  HostNetworkCreate,
  HostNetworkJoin,
  HostNetworkRemoveMember,
  HostPasswordSignIn,
} from '@meshwork/contracts';
import type { LanNetwork } from '../network/lan-network';
import type { ApiKeyStore } from '../inference/api-keys';
import type { OpenAiServer } from '../inference/openai-server';
import { ApiError, ApiUnreachable } from '../api/api-client';
import { SignInEnded } from '../account/device-sign-in';
import { EntitlementRefused } from '../entitlements/entitlement-keeper';
import { DiskFull } from '../platform/disk-full';
import { type DesktopRuntime, HostRefusal } from '../host';
import { INSTANCE_CODE_PATH, InstanceCodeRequest, instanceProof } from './instance-handshake';
import { sendSignInPage } from './sign-in-page';
import { defaultUiDirectory, sendUiFile } from './ui-files';
import { WindowAccess } from './window-access';

/** The window's session cookie (HttpOnly, this origin only); named by port, since cookies do not tell ports apart. */
const SESSION_COOKIE = 'meshwork_host_';
const MAX_BODY_BYTES = 16 * 1024;
/** The icon: the sign-in page and the browser's tab show it before any session. */
const PUBLIC_FILES = new Set(['/favicon.ico', '/favicon.svg']);

/** A refusal in the api's error format. */
class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(body.message);
  }
}

type Route = (request: IncomingMessage, response: ServerResponse) => Promise<unknown>;

/**
 * The runtime's loopback server for its own UI. A browser gets in with a one-time code
 * (`/?code=…`, see WindowAccess), traded for an HttpOnly, SameSite=Strict session cookie; without
 * one, the window's pages answer a sign-in page that says how to open it, and the api 401. The
 * instance's secret (kept in the owner-only instance file) is accepted as a bearer token: a second
 * start asks with it for a code. It answers only to Host headers naming loopback (so a
 * DNS-rebinding page gets nothing) and refuses writes whose Origin is not its own.
 */
export class ControlServer {
  readonly secret = randomBytes(32).toString('base64url');
  private readonly server: Server;
  private readonly routes: Record<string, Route>;
  private readonly access: WindowAccess;
  private listening = 0;

  constructor(
    private readonly host: DesktopRuntime,
    private readonly keys: ApiKeyStore,
    private readonly openai: OpenAiServer,
    private readonly network: LanNetwork,
    private readonly uiDirectory = defaultUiDirectory(),
    clock?: () => Date,
  ) {
    this.access = new WindowAccess(clock);
    this.routes = {
      'GET /host/state': async () => this.host.state(),
      'GET /host/events': (request, response) => this.events(request, response),
      'POST /host/sign-in/device': async () => ({ account: await this.host.startDeviceSignIn() }),
      'POST /host/sign-in/cancel': async () => this.host.cancelSignIn(),
      'POST /host/sign-in/password': async (request) => ({
        account: await this.host.signInWithPassword(parse(HostPasswordSignIn, await readJson(request))),
      }),
      'POST /host/sign-out': async () => this.host.signOut(),
      'POST /host/models/download': async (request) => this.host.downloadModel(parse(HostModelRequest, await readJson(request)).name),
      'GET /host/api-keys': async () => this.apiKeys(),
      'POST /host/api-keys': async (request) => this.keys.create(parse(HostApiKeyCreate, await readJson(request)).name),
      'POST /host/api-keys/revoke': async (request) => {
        if (!(await this.keys.revoke(parse(HostApiKeyRevoke, await readJson(request)).id)))
          throw new Refusal(404, { message: 'No such key.' });
        return this.apiKeys();
      },
      'POST /host/models/remove': async (request) => this.host.removeModel(parse(HostModelRequest, await readJson(request)).name),
      'POST /host/network/create': async (request) => {
        const { name, model } = parse(HostNetworkCreate, await readJson(request));
        await this.network.create(name, model);
      },
      'POST /host/network/join-code': async () => this.network.newJoinCode(),
      'POST /host/network/join': async (request) => this.network.join(parse(HostNetworkJoin, await readJson(request))),
      'POST /host/network/leave': async () => this.network.leave(),
      'POST /host/network/remove-member': async (request) =>
        this.network.removeMember(parse(HostNetworkRemoveMember, await readJson(request)).device_id),
      // The chat playground: the same answers, stream and errors as the LAN api, as client `ui`.
      'POST /host/chat/completions': (request, response) => this.openai.answer('ui', request, response),
    };
    // Only the instance file's reader asks here (see instance-handshake.ts), so only the bearer secret is accepted.
    this.routes[`POST ${INSTANCE_CODE_PATH}`] = async (request) => {
      if (!this.bearerMatches(request)) throw new Refusal(401, { message: 'Only another start of this instance may ask for a code.' });
      const { nonce } = parse(InstanceCodeRequest, await readJson(request));
      return { code: this.access.newCode(), proof: instanceProof(this.secret, nonce) };
    };
    this.server = createServer((request, response) => void this.handle(request, response));
  }

  /** The keys (never the keys themselves) and where clients on the LAN call. */
  private async apiKeys(): Promise<HostApiKeys> {
    return { keys: await this.keys.list(), port: this.openai.port, base_urls: this.openai.baseUrls() };
  }

  async listen(port = 0): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', resolve);
    });
    this.listening = (this.server.address() as AddressInfo).port;
  }

  get port(): number {
    return this.listening;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The origins a window of this server has: the printed address, and the same port as localhost. */
  private get origins(): string[] {
    return [this.origin, `http://localhost:${this.port}`];
  }

  /** A one-time code that opens the window (`?code=`), for two minutes. */
  newCode(): string {
    return this.access.newCode();
  }

  /** An address that opens the window, signed in, once: a fresh code each call. */
  windowUrl(path = '/'): string {
    return `${this.origin}${path}?code=${this.newCode()}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      if (!this.loopbackHost(request.headers.host)) throw new Refusal(421, { message: 'This server answers only on loopback.' });
      const url = new URL(request.url ?? '/', this.origin);
      const windowPage = request.method === 'GET' && !url.pathname.startsWith('/host/');
      if (windowPage && PUBLIC_FILES.has(url.pathname)) return await sendUiFile(this.uiDirectory, url.pathname, response);
      const code = url.searchParams.get('code');
      if (windowPage && code !== null) return this.trade(code, url, response);
      if (!this.bearerMatches(request) && !this.hasSession(request)) {
        if (windowPage) return sendSignInPage(response, false);
        throw new Refusal(401, { message: 'Open the Meshwork window from the app: this page has no access.' });
      }
      if (request.method !== 'GET' && request.headers.origin !== undefined && !this.origins.includes(request.headers.origin))
        throw new Refusal(403, { message: 'Requests from other sites are refused.' });
      if (windowPage) return await sendUiFile(this.uiDirectory, url.pathname, response);
      const route = this.routes[`${request.method} ${url.pathname}`];
      if (!route) throw new Refusal(404, { message: 'Not found.' });
      const answer = await route(request, response);
      if (!response.headersSent) send(response, 200, answer ?? this.host.state());
    } catch (error) {
      if (response.headersSent) return void response.end();
      const [status, body] = refusal(error);
      send(response, status, body);
    }
  }

  private loopbackHost(host: string | undefined): boolean {
    return host === `127.0.0.1:${this.port}` || host === `localhost:${this.port}`;
  }

  private get cookieName(): string {
    return `${SESSION_COOKIE}${this.port}`;
  }

  private hasSession(request: IncomingMessage): boolean {
    const session = request.headers.cookie
      ?.split(';')
      .map((part) => part.trim().split('='))
      .find(([name]) => name === this.cookieName)?.[1];
    return session !== undefined && this.access.hasSession(session);
  }

  private bearerMatches(request: IncomingMessage): boolean {
    const presented = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (presented === undefined) return false;
    const expected = Buffer.from(this.secret);
    const given = Buffer.from(presented);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** A live code becomes a session cookie, and the address loses the code; a spent or unknown one gets the sign-in page. */
  private trade(code: string, url: URL, response: ServerResponse): void {
    const session = this.access.redeem(code);
    if (session === null) return sendSignInPage(response, true);
    url.searchParams.delete('code');
    // A path such as `/.//elsewhere` would make the Location another site's.
    const path = url.pathname.startsWith('//') ? '/' : url.pathname;
    response.writeHead(303, {
      Location: `${path}${url.search}`,
      'Set-Cookie': `${this.cookieName}=${session}; HttpOnly; SameSite=Strict; Path=/`,
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
    });
    response.end();
  }

  /** The state as server-sent events: now, then after every change. */
  private async events(request: IncomingMessage, response: ServerResponse): Promise<void> {
    response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
    const push = (state: unknown) => response.write(`event: state\ndata: ${JSON.stringify(state)}\n\n`);
    push(this.host.state());
    this.host.on('state', push);
    const heartbeat = setInterval(() => response.write(': heartbeat\n\n'), 15_000);
    await new Promise<void>((resolve) => request.once('close', resolve));
    clearInterval(heartbeat);
    this.host.off('state', push);
  }
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(JSON.stringify(body));
}

/** The error answer: a HostRefusal's code and values beside its English, for the window to word. */
function refusal(error: unknown): [number, HostErrorBody] {
  if (error instanceof Refusal || error instanceof ApiError) return [error.status, error.body];
  if (error instanceof HostRefusal) return [400, { message: error.message, ...error.reason }];
  if (error instanceof SignInEnded) return [400, { message: error.message }];
  if (error instanceof EntitlementRefused) return [502, { message: error.message }];
  if (error instanceof DiskFull) return [507, { message: error.message }];
  if (error instanceof ApiUnreachable)
    return [503, { message: 'Meshwork cannot be reached from this device. Check the connection and try again.' }];
  return [500, { message: (error as Error).message || 'Something went wrong in the host.' }];
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Refusal(413, { message: 'The request is too large.' });
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new Refusal(400, { message: 'The request body is not JSON.' });
  }
}

function parse<Schema extends z.ZodType>(schema: Schema, value: unknown): z.output<Schema> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const errors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) (errors[issue.path.join('.') || 'non_field_errors'] ??= []).push(issue.message);
  throw new Refusal(400, { message: Object.values(errors)[0]?.[0] ?? 'Invalid request', errors });
}
