import net from 'node:net';
import { isInsideAddress, sendWebhook } from './webhook-sender';

describe('the webhook sender in full mode', () => {
  it('counts loopback, private, link-local, mapped and metadata addresses as inside', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
    ])
      expect([address, isInsideAddress(address)]).toEqual([address, true]);
    for (const address of ['93.184.216.34', '::ffff:93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'])
      expect([address, isInsideAddress(address)]).toEqual([address, false]);
  });

  it('refuses http, inside addresses and names that resolve inside, without connecting', async () => {
    const options = { strict: true, timeoutMs: 2000, maxBodyBytes: 100 };
    expect((await sendWebhook('http://example.com/', {}, '{}', options)).error).toBe('Only https endpoints are called.');
    expect((await sendWebhook('https://127.0.0.1/', {}, '{}', options)).error).toMatch(/may not reach/);
    expect((await sendWebhook('https://[::1]:8443/', {}, '{}', options)).error).toMatch(/may not reach/);
    expect((await sendWebhook('https://localhost/', {}, '{}', options)).error).toMatch(
      /localhost resolves to .* which webhooks may not reach/,
    );
  });
});

/**
 * An endpoint on loopback speaking plain HTTP/1.1 that keeps connections open without saying for
 * how long (as many servers do) and, when armed, closes a kept connection as the next request
 * arrives on it: what an endpoint's idle timeout does to a delivery sent at that moment.
 */
async function endpointClosingKeptConnections() {
  const state = { closeNextKept: false, connections: 0, closed: 0, bodies: [] as string[] };
  const server = net.createServer((socket) => {
    state.connections += 1;
    let answered = 0;
    let buffered = Buffer.alloc(0);
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      if (answered > 0 && buffered.length === 0 && state.closeNextKept) {
        state.closeNextKept = false;
        state.closed += 1;
        return void socket.resetAndDestroy();
      }
      buffered = Buffer.concat([buffered, chunk]);
      const headEnd = buffered.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const length = Number(/content-length: (\d+)/i.exec(buffered.subarray(0, headEnd).toString())?.[1] ?? 0);
      if (buffered.length < headEnd + 4 + length) return;
      state.bodies.push(buffered.subarray(headEnd + 4, headEnd + 4 + length).toString());
      buffered = Buffer.alloc(0);
      answered += 1;
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return { state, url: `http://127.0.0.1:${port}/hook`, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe('the webhook sender on kept connections', () => {
  it('sends a delivery again on a new connection when the endpoint closed the kept one as it went out, within the one attempt', async () => {
    const endpoint = await endpointClosingKeptConnections();
    const options = { strict: false, timeoutMs: 5_000, maxBodyBytes: 100 };
    try {
      expect(await sendWebhook(endpoint.url, {}, '{"n":1}', options)).toMatchObject({ ok: true, status: 200, error: null });
      endpoint.state.closeNextKept = true;
      expect(await sendWebhook(endpoint.url, {}, '{"n":2}', options)).toMatchObject({ ok: true, status: 200, error: null });
      expect(endpoint.state).toMatchObject({ closed: 1, connections: 2, bodies: ['{"n":1}', '{"n":2}'] });
    } finally {
      await endpoint.close();
    }
  });
});
