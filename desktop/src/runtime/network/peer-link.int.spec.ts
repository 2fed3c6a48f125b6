/**
 * A link's patience, over a real TLS connection: a silent peer is lost after the silence limit,
 * counted from the last frame heard, and a closed connection at once.
 * The far end is a raw socket, so it says exactly what each test needs and nothing else. "In
 * time" is the link giving up at its first heartbeat past its deadline, on a clock the test
 * moves: a wall-clock bound would only hold on an idle machine.
 */
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, createServer, type Server, type TLSSocket } from 'node:tls';
import { LanToHost } from '@meshwork/contracts';
import { eventually } from '@meshwork/testkit/eventually';
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

  /**
   * The host's link to a member whose raw socket the test writes; resolves once both ends are up.
   * The link counts silence by `clock`, which only the test moves: its heartbeat is still the real
   * one, so each claim below is exact in the link's own time however slow the machine is.
   */
  async function link(): Promise<{
    link: PeerLink<LanToHost, { type: 'ping' }>;
    member: TLSSocket;
    clock: { now: number };
    closed: Promise<PeerLost>;
  }> {
    const count = accepted.length;
    const port = (server.address() as { port: number }).port;
    const member = connect({ host: '127.0.0.1', port, rejectUnauthorized: false });
    dialled.push(member);
    await once(member, 'secureConnect');
    while (accepted.length === count) await new Promise((resolve) => setImmediate(resolve));
    const clock = { now: 0 };
    const hostLink = new PeerLink<LanToHost, { type: 'ping' }>(accepted[count]!, LanToHost, { type: 'ping' }, null, {
      silenceLimitMs: SILENCE_MS,
      now: () => clock.now,
    });
    const closed = new Promise<PeerLost>((resolve) => hostLink.once('close', resolve));
    return { link: hostLink, member, clock, closed };
  }

  /**
   * What the link does at its next heartbeat: keep the peer, or give up on it. Asked right after
   * the test moves the clock, so that heartbeat reads the new time (a heartbeat runs whole).
   */
  function nextHeartbeat(subject: { link: PeerLink<LanToHost, { type: 'ping' }>; closed: Promise<unknown> }): Promise<'kept' | 'lost'> {
    return Promise.race([once(subject.link, 'heartbeat').then(() => 'kept' as const), subject.closed.then(() => 'lost' as const)]);
  }

  it('loses a peer that says nothing, at the first heartbeat past the silence limit', async () => {
    const subject = await link();
    expect(subject.link.patientUntil).toBe(SILENCE_MS);
    subject.clock.now = SILENCE_MS + 1;
    expect(await nextHeartbeat(subject)).toBe('lost');
    expect((await subject.closed).failure).toEqual({ code: 'stopped_answering' });
  });

  it('counts the silence from the last frame heard, and gives up at the first heartbeat past it', async () => {
    const subject = await link();
    subject.clock.now = 200;
    subject.member.write(frame({ type: 'pong' }));
    await eventually(async () => subject.link.patientUntil === 200 + SILENCE_MS, 'the pong taken');
    // Past the limit counted from the link's start, but not from the pong: a link that forgot it gives up here.
    subject.clock.now = 200 + SILENCE_MS;
    expect(await nextHeartbeat(subject)).toBe('kept');
    subject.clock.now = 200 + SILENCE_MS + 1;
    expect(await nextHeartbeat(subject)).toBe('lost');
    expect((await subject.closed).failure).toEqual({ code: 'stopped_answering' });
  });

  it('loses a peer at once when its connection closes', async () => {
    const subject = await link();
    subject.member.destroy();
    // The link's clock never moves here: it can only have given up on the closed connection.
    expect((await subject.closed).failure.code).not.toBe('stopped_answering');
  });
});
