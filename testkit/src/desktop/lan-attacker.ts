/**
 * A hostile machine on a LAN lab (issue 31, item 2), driven by the test over stdio like
 * lan-agent.ts: it hears a network's announcement and announces the same network from itself
 * with its own certificate, plays that network's host to whoever joins it (recording every
 * frame they send, and answering a key exchange with a guessed code), replays a member's
 * document in a `hello` to the real host, guesses codes there, and floods forged announcements.
 * Run by `startLanAttacker` as `node -r @swc-node/register testkit/src/desktop/lan-attacker.ts`.
 */
import { randomUUID, sign, X509Certificate } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, createServer } from 'node:tls';
import { createInterface } from 'node:readline';
import { LAN_DISCOVERY_GROUP, LAN_DISCOVERY_PORT, type LanAnnouncement } from '@meshwork/contracts';
import { signedBytes } from '../../../desktop/src/runtime/network/discovery';
import { JoinExchange, newSessionId } from '../../../desktop/src/runtime/network/join-pake';
import { certificateFingerprint, lanIdentity, selfSigned } from '../../../desktop/src/runtime/network/lan-identity';

const send = (message: unknown) => process.stdout.write(`${JSON.stringify(message)}\n`);
type Json = Record<string, unknown>;

/** One frame as peer-link.ts writes it. */
const frame = (header: Json): Buffer => {
  const json = Buffer.from(JSON.stringify(header));
  const lengths = Buffer.alloc(8);
  lengths.writeUInt32BE(json.length, 0);
  return Buffer.concat([lengths, json]);
};

/** Headers from a byte stream of frames. */
function frames(onHeader: (header: Json) => void): (chunk: Buffer) => void {
  let buffered = Buffer.alloc(0);
  return (chunk) => {
    buffered = Buffer.concat([buffered, chunk]);
    while (buffered.length >= 8) {
      const total = 8 + buffered.readUInt32BE(0) + buffered.readUInt32BE(4);
      if (buffered.length < total) return;
      onHeader(JSON.parse(buffered.subarray(8, 8 + buffered.readUInt32BE(0)).toString('utf8')) as Json);
      buffered = buffered.subarray(total);
    }
  };
}

/** An announcement of `heard`'s network from this machine, by `identity`, in the format `heard` has. */
function reannounce(heard: Json & { network: Json }, identity: { key: string; certificate: string }, address: string, networkId?: string) {
  const der = new X509Certificate(identity.certificate).raw;
  const network = { ...heard.network, id: networkId ?? heard.network.id };
  if (heard.meshwork === 1) return { ...heard, network, certificate_sha256: certificateFingerprint(der) };
  const unsigned = {
    meshwork: heard.meshwork,
    owner: heard.owner,
    network,
    addresses: [address],
    port: 8433,
    certificate: der.toString('base64'),
  };
  // The heard announcement's fields, as the real host's format has them: signed as a host signs.
  const bytes = signedBytes(unsigned as unknown as Omit<LanAnnouncement, 'signature'>);
  return { ...unsigned, signature: sign('sha256', bytes, identity.key).toString('base64') };
}

async function main(): Promise<void> {
  const { address } = JSON.parse(process.env.MESHWORK_ATTACKER ?? '{}') as { address: string };
  const dataDir = mkdtempSync(join(tmpdir(), 'attacker-'));
  // Its identity's folder goes when it exits, however it exits: a test run leaves /tmp as it found it.
  process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  const identity = await lanIdentity(dataDir, 'Studio');
  const captured: Json[] = [];
  type Heard = Json & { network: Json };
  let heard: Heard | null = null;
  /** The announcement heard first, once there is one. */
  const firstHeard = async (): Promise<Heard> => {
    while (!heard) await new Promise((r) => setTimeout(r, 100));
    return heard as Heard;
  };

  const listener = createSocket({ type: 'udp4', reuseAddr: true });
  listener.on('message', (message, from) => {
    if (heard || from.address === address) return;
    heard = JSON.parse(message.toString('utf8')) as Json & { network: Json };
  });
  await new Promise<void>((resolve) => listener.bind(LAN_DISCOVERY_PORT, () => resolve()));
  listener.addMembership(LAN_DISCOVERY_GROUP, address);
  const sender = createSocket('udp4');
  await new Promise<void>((resolve) => sender.bind(0, address, () => resolve()));
  sender.setMulticastInterface(address);
  const multicast = (message: unknown) =>
    new Promise<void>((resolve) =>
      sender.send(Buffer.from(JSON.stringify(message)), LAN_DISCOVERY_PORT, LAN_DISCOVERY_GROUP, () => resolve()),
    );

  // The fake host: records what joining devices send, answers a join with a guessed code.
  const server = createServer(
    { key: identity.key, cert: identity.certificate, requestCert: true, rejectUnauthorized: false, minVersion: 'TLSv1.3' },
    (socket) => {
      const member = certificateFingerprint(socket.getPeerX509Certificate()!.raw);
      socket.on('error', () => undefined);
      socket.on(
        'data',
        frames((header) => {
          captured.push({ ...header, host_certificate: identity.fingerprint, member_certificate: member });
          if (header.type === 'join' && typeof header.share === 'string') {
            const exchange = new JoinExchange('host', 'BBBB-BBBB', {
              sid: String(header.sid),
              hostCertificate: identity.fingerprint,
              memberCertificate: member,
            });
            const key = exchange.key(header.share)!;
            const network = { id: heard!.network.id, name: heard!.network.name, model: heard!.network.model };
            socket.write(
              frame({
                type: 'exchange',
                network,
                share: exchange.share,
                tag: key.tag('host', network.id as string, network.name as string, network.model as string),
              }),
            );
          } else if (header.type === 'join') {
            socket.write(frame({ type: 'refused', reason: { code: 'awaiting_confirmation' } }));
          }
        }),
      );
    },
  );
  await new Promise<void>((resolve) => server.listen(8433, address, resolve));
  send({ ready: { fingerprint: identity.fingerprint } });
  let spoofing: NodeJS.Timeout | null = null;

  /** Opens a TLS connection to `target` with this machine's certificate, sends `header`, answers the first frame back. */
  const ask = (
    target: { address: string; port: number },
    header: (hostCertificate: string) => Json,
    then?: (answer: Json, hostCertificate: string) => Json | null,
  ) =>
    new Promise<Json[]>((resolve, reject) => {
      const answers: Json[] = [];
      const socket = connect(
        {
          host: target.address,
          port: target.port,
          key: identity.key,
          cert: identity.certificate,
          rejectUnauthorized: false,
          minVersion: 'TLSv1.3',
        },
        () => {
          const hostCertificate = certificateFingerprint(socket.getPeerX509Certificate()!.raw);
          socket.write(frame(header(hostCertificate)));
          socket.on(
            'data',
            frames((answer) => {
              if (answer.type === 'ping') return;
              answers.push(answer);
              const next = then?.(answer, hostCertificate);
              if (next) socket.write(frame(next));
              else socket.end();
            }),
          );
        },
      );
      socket.setTimeout(15_000, () => socket.destroy());
      socket.on('close', () => resolve(answers));
      socket.on('error', reject);
    });

  for await (const line of createInterface({ input: process.stdin })) {
    const request = JSON.parse(line) as { id: number } & Json;
    try {
      let result: unknown;
      if (request.spoof) {
        // Announces the network it heard, from itself, with its own certificate (its key signs it).
        const original = await firstHeard();
        const spoof = reannounce(original, identity, address);
        spoofing = setInterval(() => void multicast(spoof), 200);
        await multicast(spoof);
        result = { fingerprint: identity.fingerprint, network: original.network };
      } else if (request.captured) {
        result = captured;
      } else if (request.hello) {
        // A member's signed document, replayed over this machine's own certificate.
        const { target, device_id, entitlements } = request.hello as {
          target: { address: string; port: number };
          device_id: string;
          entitlements: string;
        };
        result = await ask(target, () => ({
          type: 'hello',
          device_id,
          entitlements,
          node: { free_memory_bytes: 1, speed: 1, models: [] },
        }));
      } else if (request.guess) {
        // One live guess at the real host's code: a run of the key exchange.
        const { target, code, device_id } = request.guess as { target: { address: string; port: number }; code: string; device_id: string };
        let exchange: JoinExchange | null = null;
        const answers = await ask(
          target,
          (hostCertificate) => {
            exchange = new JoinExchange('member', code, { sid: newSessionId(), hostCertificate, memberCertificate: identity.fingerprint });
            return { type: 'join', device_id, device_name: 'Laptop', sid: exchange.context.sid, share: exchange.share };
          },
          (answer) => {
            if (answer.type !== 'exchange') return null;
            const key = exchange!.key(answer.share as string);
            const network = answer.network as { id: string; name: string; model: string };
            if (!key?.matches('host', answer.tag as string, network.id, network.name, network.model)) return null;
            return {
              type: 'confirm',
              tag: key.tag('member', device_id, 'Laptop'),
              entitlements: 'x',
              node: { free_memory_bytes: 1, speed: 1, models: [] },
            };
          },
        );
        result = answers.map((a) => (a.type === 'exchange' ? { type: 'exchange' } : a));
      } else if (request.flood) {
        // Forged announcements of networks of the same customer, each validly signed by a key of its own.
        const { count } = request.flood as { count: number };
        const keys = Array.from({ length: 20 }, () => selfSigned('Forged'));
        const original = await firstHeard();
        for (let i = 0; i < count; i++) await multicast(reannounce(original, keys[i % keys.length]!, address, randomUUID()));
        result = { sent: count };
      }
      send({ id: request.id, result });
    } catch (error) {
      send({ id: request.id, error: (error as Error).message });
    }
  }
  if (spoofing) clearInterval(spoofing);
  listener.close();
  sender.close();
  server.close();
  process.exit(0);
}

main().catch((error: Error) => {
  send({ fatal: error.message });
  process.exit(1);
});
