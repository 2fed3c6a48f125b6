import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import {
  ErrorBody,
  type HostApiKeys,
  HostApiKeyCreate,
  HostApiKeyRevoke,
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
import { type Host, HostRefusal } from '../host';
import { defaultUiDirectory, sendUiFile } from './ui-files';

/** The cookie the UI holds once it has opened the launch URL: HttpOnly, this origin only. */
const SESSION_COOKIE = 'meshwork_host';
const MAX_BODY_BYTES = 16 * 1024;

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
 * The runtime's loopback server for its own UI. Only a client holding this launch's secret
 * may drive it: the launch URL (`/?launch=<secret>`) trades the secret for an HttpOnly,
 * SameSite=Strict cookie, and the Electron shell may send it as a bearer token. It answers only
 * to Host headers naming loopback (so a DNS-rebinding page gets nothing) and refuses writes whose
 * Origin is not its own.
 */
export class ControlServer {
  readonly secret = randomBytes(32).toString('base64url');
  private readonly server: Server;
  private readonly routes: Record<string, Route>;
  private port = 0;

  constructor(
    private readonly host: Host,
    private readonly keys: ApiKeyStore,
    private readonly openai: OpenAiServer,
    private readonly network: LanNetwork,
    private readonly uiDirectory = defaultUiDirectory(),
  ) {
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
    this.port = (this.server.address() as AddressInfo).port;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The URL that opens the UI: it carries the secret once, then the cookie does. */
  get launchUrl(): string {
    return `${this.origin}/?launch=${this.secret}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      if (!this.loopbackHost(request.headers.host)) throw new Refusal(421, { message: 'This server answers only on loopback.' });
      const url = new URL(request.url ?? '/', this.origin);
      const launch = url.searchParams.get('launch');
      if (request.method === 'GET' && url.pathname === '/' && launch !== null) return await this.trade(launch, response);
      if (!this.authorised(request)) throw new Refusal(401, { message: 'Open the Meshwork window from the app: this page has no access.' });
      if (request.method !== 'GET' && request.headers.origin !== undefined && request.headers.origin !== this.origin)
        throw new Refusal(403, { message: 'Requests from other sites are refused.' });
      if (request.method === 'GET' && !url.pathname.startsWith('/host/')) return await sendUiFile(this.uiDirectory, url.pathname, response);
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

  private authorised(request: IncomingMessage): boolean {
    const bearer = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
    const cookie = request.headers.cookie
      ?.split(';')
      .map((part) => part.trim().split('='))
      .find(([name]) => name === SESSION_COOKIE)?.[1];
    return [bearer, cookie].some((presented) => presented !== undefined && this.matches(presented));
  }

  private matches(presented: string): boolean {
    const expected = Buffer.from(this.secret);
    const given = Buffer.from(presented);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private async trade(launch: string, response: ServerResponse): Promise<void> {
    if (!this.matches(launch)) throw new Refusal(401, { message: 'This launch link is not valid: open the window from the app.' });
    response.writeHead(303, {
      Location: '/',
      'Set-Cookie': `${SESSION_COOKIE}=${this.secret}; HttpOnly; SameSite=Strict; Path=/`,
      'Cache-Control': 'no-store',
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

function refusal(error: unknown): [number, ErrorBody] {
  if (error instanceof Refusal || error instanceof ApiError) return [error.status, error.body];
  if (error instanceof SignInEnded || error instanceof HostRefusal) return [400, { message: error.message }];
  if (error instanceof EntitlementRefused) return [502, { message: error.message }];
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
