import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got, as it came, and what it answered. */
export interface Received {
  eventId: string;
  deliveryId: string;
  userAgent: string;
  signature: string;
  body: string;
  answeredWith: number;
}

/**
 * `t=<seconds>,v1=<hex>[,v1=<hex>]` checked as a customer's receiver would: some v1 is the
 * HMAC-SHA256 of "<t>.<body>" under the secret, and t is within five minutes.
 */
export function signatureHolds(header: string, body: string, secret: string): boolean {
  const fields = header.split(',').map((field) => field.split('='));
  const t = fields.find(([key]) => key === 't')?.[1] ?? '';
  if (!/^\d+$/.test(t) || Math.abs(Date.now() / 1000 - Number(t)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  return fields.some(([key, hex]) => {
    const given = Buffer.from(hex ?? '', 'hex');
    return key === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** A webhook receiver on loopback: it answers `status` with `answer` (both changed by the test) and keeps what came. */
export async function startReceiver() {
  const received: Received[] = [];
  const state = { status: 200, answer: 'ok' };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({
        eventId: String(request.headers['meshwork-event-id'] ?? ''),
        deliveryId: String(request.headers['meshwork-delivery-id'] ?? ''),
        userAgent: String(request.headers['user-agent'] ?? ''),
        signature: String(request.headers['meshwork-signature'] ?? ''),
        body,
        answeredWith: state.status,
      });
      response.writeHead(state.status, { 'Content-Type': 'text/plain' }).end(state.answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/meshwork/webhooks`,
    received,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
