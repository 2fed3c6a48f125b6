import { randomBytes, randomUUID } from 'node:crypto';
import net from 'node:net';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { required } from '@meshwork/testkit/infra';
import { loadConfig } from '../config/config';
import { objectStorageFor } from './object-storage.factory';
import type { S3Storage } from './s3-storage';

/**
 * MinIO behind a TCP relay that can close a kept connection just as the next part is sent on
 * it, as MinIO does when the part arrives as its 30-s idle limit ends.
 */
async function relayToMinio() {
  const target = new URL(required('S3_ENDPOINT'));
  const state = { closeKeptOnPart: 'never' as 'never' | 'once' | 'always', closed: 0 };
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    let answered = false; // this connection has carried an answer: it is a kept one now
    upstream.on('data', (chunk) => {
      answered = true;
      client.write(chunk);
    });
    client.on('data', (chunk: Buffer) => {
      const part = /^PUT [^ ]*partNumber=/.test(chunk.subarray(0, 2048).toString('latin1'));
      if (part && (state.closeKeptOnPart === 'always' || (answered && state.closeKeptOnPart === 'once'))) {
        if (state.closeKeptOnPart === 'once') state.closeKeptOnPart = 'never';
        state.closed += 1;
        client.resetAndDestroy();
        upstream.destroy();
        return;
      }
      upstream.write(chunk);
    });
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return { state, endpoint: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('S3 storage: a kept connection closed by MinIO', () => {
  let relay: Awaited<ReturnType<typeof relayToMinio>>;
  let storage: S3Storage;
  const keys: string[] = [];
  const key = () => {
    keys.push(`tests/kept-connections/${randomUUID()}`);
    return keys.at(-1)!;
  };

  beforeAll(async () => {
    relay = await relayToMinio();
    const config = loadConfig({
      DATABASE_URL: required('DATABASE_URL'),
      S3_ENDPOINT: relay.endpoint,
      S3_ACCESS_KEY: required('S3_ACCESS_KEY'),
      S3_SECRET_KEY: required('S3_SECRET_KEY'),
    });
    storage = objectStorageFor(config, Buffer.alloc(32)) as S3Storage;
  });
  afterAll(async () => {
    relay.state.closeKeptOnPart = 'never';
    await storage.remove(keys);
    await relay.close();
  });

  it('sends a part again on a new connection when the kept one was closed as it was sent', async () => {
    await storage.put(key(), Readable.from([randomBytes(1024)])); // leaves its part's connection kept
    relay.state.closeKeptOnPart = 'once';
    const bytes = randomBytes(3 * 1024 * 1024);
    const stored = key();
    await storage.put(stored, Readable.from([bytes]));
    expect(relay.state.closed).toBe(1);
    expect((await buffer(await storage.read(stored))).equals(bytes)).toBe(true);
  });

  it('fails, once, when a part cannot be sent on a new connection either', async () => {
    relay.state.closed = 0;
    relay.state.closeKeptOnPart = 'always';
    await expect(storage.put(key(), Readable.from([randomBytes(1024)]))).rejects.toThrow(/ECONNRESET|socket hang up/);
    expect(relay.state.closed).toBeLessThanOrEqual(2); // the kept connection (if any), then one new one
    expect(relay.state.closed).toBeGreaterThanOrEqual(1);
  });
});
