import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { closedUnderneath } from '../../platform/http/kept-connection';

/** What one attempt came to: a status when the endpoint answered, an error when it did not. */
export interface AttemptOutcome {
  ok: boolean;
  status: number | null;
  latencyMs: number;
  error: string | null;
  bodyExcerpt: string | null;
}

export interface SenderOptions {
  /** Full mode: https only, and never an address inside (private, loopback, link-local, ...). */
  strict: boolean;
  /** The whole attempt, connect to answer read. */
  timeoutMs: number;
  /** Bytes of the answer kept; the rest is not read. */
  maxBodyBytes: number;
}

/** Addresses a webhook may never reach in full mode: this host, private networks, link-local, metadata services. */
const INSIDE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  INSIDE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  INSIDE.addSubnet(net, prefix, 'ipv6');

/** An IPv4 address carried in IPv6 (mapped ::ffff:a.b.c.d, or NAT64 64:ff9b::/96), as IPv4; else null. */
function embeddedIpv4(address: string): string | null {
  const match = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!match) return null;
  if (match[1]) return match[1];
  const high = parseInt(match[2]!, 16);
  const low = parseInt(match[3]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

export function isInsideAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  const ipv4 = family === 6 ? embeddedIpv4(address) : address;
  // Node's BlockList matches IPv4 against IPv4 rules only; the embedded forms are checked as IPv4.
  return ipv4 !== null ? INSIDE.check(ipv4, 'ipv4') : INSIDE.check(address, 'ipv6');
}

class RefusedAddress extends Error {}

/**
 * Resolves the host and refuses it if any of its addresses is inside; the connection then
 * goes to an address checked here, so a second resolution cannot rebind it elsewhere.
 */
const checkedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { all: true, family: options.family, hints: options.hints }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const inside = addresses.find((a) => isInsideAddress(a.address));
    if (inside || addresses.length === 0)
      return callback(new RefusedAddress(`${hostname} resolves to ${inside?.address ?? 'nothing'}, which webhooks may not reach`), '', 0);
    if (options.all) return (callback as unknown as (e: null, a: typeof addresses) => void)(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};

/**
 * Connections kept open between deliveries, so a busy endpoint is not reconnected for each one.
 * No cap per host here: endpoints may share a host, and the sender limits each endpoint itself.
 * A socket is only reused for the host it was opened to, after the address check its opening passed.
 */
const AGENT_OPTIONS = { keepAlive: true, maxFreeSockets: 4, timeout: 30_000 };
const agents = { http: new http.Agent(AGENT_OPTIONS), https: new https.Agent(AGENT_OPTIONS) };

/** POSTs a signed body to an endpoint: no redirect followed, a hard deadline, the answer read up to a cap. */
export function sendWebhook(url: string, headers: Record<string, string>, body: string, options: SenderOptions): Promise<AttemptOutcome> {
  const started = performance.now();
  const outcome = (status: number | null, error: string | null, bodyExcerpt: string | null = null): AttemptOutcome => ({
    ok: status !== null && status >= 200 && status < 300,
    status,
    latencyMs: Math.round(performance.now() - started),
    error,
    bodyExcerpt,
  });
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve(outcome(null, 'The URL is not valid.'));
  }
  if (options.strict) {
    if (target.protocol !== 'https:') return Promise.resolve(outcome(null, 'Only https endpoints are called.'));
    const literal = target.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) && isInsideAddress(literal)) return Promise.resolve(outcome(null, `${literal} is an address webhooks may not reach`));
  }
  const transport = target.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let done = false;
    let request: http.ClientRequest;
    /** `keep`: the answer was read whole, so the connection may serve the next delivery. */
    const finish = (result: AttemptOutcome, keep = false) => {
      if (done) return;
      done = true;
      clearTimeout(deadline);
      if (!keep) request.destroy();
      resolve(result);
    };
    const send = (agent: http.Agent | false) => {
      request = transport.request(
        target,
        {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) },
          agent,
          ...(options.strict ? { lookup: checkedLookup } : {}),
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          const settle = (keep: boolean) => {
            const text = Buffer.concat(chunks).subarray(0, options.maxBodyBytes).toString('utf8');
            const status = response.statusCode ?? null;
            const redirect = status !== null && status >= 300 && status < 400 ? 'Redirects are not followed.' : null;
            finish(outcome(status, redirect ?? (status !== null && status >= 400 ? `The endpoint answered ${status}.` : null), text), keep);
          };
          response.on('data', (chunk: Buffer) => {
            chunks.push(chunk);
            size += chunk.length;
            if (size >= options.maxBodyBytes) settle(false);
          });
          response.on('end', () => settle(true));
          response.on('error', (error) => finish(outcome(response.statusCode ?? null, error.message)));
        },
      );
      request.on('error', (error: NodeJS.ErrnoException) => {
        // The endpoint closed a kept connection as this went out: once more on a new one (within the deadline).
        if (agent && !done && closedUnderneath(request, error)) send(false);
        else finish(outcome(null, error.message));
      });
      request.end(body);
    };
    const deadline = setTimeout(() => finish(outcome(null, `No answer within ${options.timeoutMs} ms.`)), options.timeoutMs);
    send(target.protocol === 'https:' ? agents.https : agents.http);
  });
}
