import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the receiver got, with whether one of its signatures matched a secret it knows. */
export interface Received {
  path: string;
  eventId: string;
  deliveryId: string;
  body: { id: string; type: string; api_version: string; created_at: string; data: Record<string, unknown> };
  signatures: number;
  verified: boolean;
  at: number;
}

export type Behaviour = 'ok' | 'fail' | 'hang';

/** Verifies `t=...,v1=...` against the secrets as a customer's receiver would (constant-time, 5-minute tolerance). */
export function verifySignature(header: string, rawBody: string, secrets: readonly string[], nowSeconds = Date.now() / 1000): boolean {
  const parts = header.split(',').map((p) => p.split('=') as [string, string]);
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isFinite(t) || Math.abs(nowSeconds - t) > 300) return false;
  const given = parts.filter(([k]) => k === 'v1').map(([, v]) => Buffer.from(v, 'hex'));
  return secrets.some((secret) => {
    const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
    return given.some((g) => g.length === expected.length && timingSafeEqual(g, expected));
  });
}

/**
 * A real HTTP receiver on loopback: each path behaves as set (answer 204, answer 500, or
 * never answer), checks signatures against the secrets set for that path, and keeps what came.
 */
export async function startReceiver() {
  const received: Received[] = [];
  const behaviour = new Map<string, Behaviour>();
  const secrets = new Map<string, string[]>();
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const path = request.url ?? '/';
      const header = String(request.headers['meshwork-signature'] ?? '');
      received.push({
        path,
        eventId: String(request.headers['meshwork-event-id']),
        deliveryId: String(request.headers['meshwork-delivery-id']),
        body: JSON.parse(raw) as Received['body'],
        signatures: header.split(',').filter((p) => p.startsWith('v1=')).length,
        verified: verifySignature(header, raw, secrets.get(path) ?? []),
        at: Date.now(),
      });
      const mode = behaviour.get(path) ?? 'ok';
      if (mode === 'hang') return hanging.add(response);
      response.writeHead(mode === 'ok' ? 204 : 500).end(mode === 'ok' ? undefined : 'receiver says no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    received,
    url: (path: string) => `${base}${path}`,
    set(path: string, mode: Behaviour, pathSecrets?: string[]) {
      behaviour.set(path, mode);
      if (pathSecrets) secrets.set(path, pathSecrets);
    },
    at: (path: string) => received.filter((r) => r.path === path),
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
