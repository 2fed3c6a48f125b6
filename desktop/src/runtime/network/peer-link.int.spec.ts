/**
 * A link's patience, over a real TLS connection: a silent peer is lost after the silence limit,
 * a peer that said it is busy (loading blocks: onnxruntime creates sessions synchronously) is
 * given the time it asked for, and any frame after that counts the silence from there again.
 * The far end is a raw socket, so it says exactly what each test needs and nothing else.
 */
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, createServer, type Server, type TLSSocket } from 'node:tls';
import { LanToHost } from '@meshwork/contracts';
import { lanIdentity } from './lan-identity';
import { PeerLink, type PeerLost } from './peer-link';

const SILENCE_MS = 300;

function frame(header: object): Buffer {
  const json = Buffer.from(JSON.stringify(header));
  const lengths = Buffer.alloc(8);
  lengths.writeUInt32BE(json.length, 0);
  return Buffer.concat([lengths, json]);
}

describe('a LAN link’s patience with a silent peer', () => {
  let dir: string;
  let server: Server;
  const accepted: TLSSocket[] = [];
  const dialled: TLSSocket[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'peer-link-'));
    const identity = await lanIdentity(dir, 'Host');
    server = createServer({ key: identity.key, cert: identity.certificate }, (socket) => accepted.push(socket));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
  });

  afterAll(async () => {
    for (const socket of [...accepted, ...dialled]) socket.destroy();
    server.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** The host's link to a member whose raw socket the test writes; resolves once both ends are up. */
  async function link(): Promise<{ link: PeerLink<LanToHost, { type: 'ping' }>; member: TLSSocket; closed: Promise<[PeerLost, number]> }> {
    const count = accepted.length;
    const port = (server.address() as { port: number }).port;
    const member = connect({ host: '127.0.0.1', port, rejectUnauthorized: false });
    dialled.push(member);
    await once(member, 'secureConnect');
    while (accepted.length === count) await new Promise((resolve) => setImmediate(resolve));
    const hostLink = new PeerLink<LanToHost, { type: 'ping' }>(accepted[count]!, LanToHost, { type: 'ping' }, null, {
      silenceLimitMs: SILENCE_MS,
    });
    const closed = new Promise<[PeerLost, number]>((resolve) => hostLink.once('close', (reason) => resolve([reason, Date.now()])));
    return { link: hostLink, member, closed };
  }

  it('loses a peer that says nothing', async () => {
    const { closed } = await link();
    const started = Date.now();
    const [reason, at] = await closed;
    expect(reason.failure).toEqual({ code: 'stopped_answering' });
    expect(at - started).toBeLessThan(SILENCE_MS + 3000);
  });

  it('waits out the time a busy peer asked for, and no longer', async () => {
    const { member, closed } = await link();
    const said = Date.now();
    member.write(frame({ type: 'busy', seconds: 2 }));
    const [reason, at] = await closed;
    expect(reason.failure).toEqual({ code: 'stopped_answering' });
    // Ten times the silence limit passed before the link gave up: the two seconds it was promised.
    expect(at - said).toBeGreaterThanOrEqual(2000);
    expect(at - said).toBeLessThan(2000 + 3000);
  });

  it('counts silence again from the first frame after busy', async () => {
    const { member, closed } = await link();
    member.write(frame({ type: 'busy', seconds: 60 }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const spoke = Date.now();
    member.write(frame({ type: 'pong' }));
    const [reason, at] = await closed;
    expect(reason.failure).toEqual({ code: 'stopped_answering' });
    expect(at - spoke).toBeLessThan(SILENCE_MS + 3000);
  });

  it('still loses a busy peer at once when its connection closes', async () => {
    const { member, closed } = await link();
    member.write(frame({ type: 'busy', seconds: 60 }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const ended = Date.now();
    member.destroy();
    const [reason, at] = await closed;
    expect(reason.failure.code).not.toBe('stopped_answering');
    expect(at - ended).toBeLessThan(2000);
  });
});
