/**
 * Finding networks on the LAN: a host announces its network on a UDP multicast group every
 * second, on each of its IPv4 interfaces; every signed-in device listens and lists the networks
 * of its own customer (the announcement carries a hash of the customer's id, not the id). An
 * announcement is only a hint: joining proves everything over TLS.
 */
import { createHash } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { networkInterfaces } from 'node:os';
import {
  type DiscoveredNetwork,
  LAN_ANNOUNCE_INTERVAL_MS,
  LAN_ANNOUNCE_TTL_MS,
  LAN_DISCOVERY_GROUP,
  LanAnnouncement,
} from '@meshwork/contracts';

export const ownerTag = (userId: string): string => createHash('sha256').update(`meshwork-owner\n${userId}`).digest('hex');

/** This machine's IPv4 addresses on its LAN interfaces (or just the one it was told to use). */
export function lanAddresses(only?: string): string[] {
  if (only && only !== '0.0.0.0') return [only];
  return Object.values(networkInterfaces())
    .flat()
    .filter((i) => i !== undefined && i.family === 'IPv4' && !i.internal)
    .map((i) => i!.address);
}

export interface Discovered extends DiscoveredNetwork {
  certificate_sha256: string;
  seenAt: number;
}

export class Discovery {
  private readonly listener: Socket;
  private readonly senders = new Map<string, Socket>();
  private readonly found = new Map<string, Discovered>();
  private announcement: LanAnnouncement | null = null;
  private readonly timer: NodeJS.Timeout;
  private owner: string | null = null;

  constructor(
    private readonly port: number,
    private readonly onChange: () => void,
    private readonly address?: string,
  ) {
    this.listener = createSocket({ type: 'udp4', reuseAddr: true });
    this.listener.on('message', (message, from) => this.heard(message, from.address));
    this.listener.on('error', () => undefined); // a LAN without multicast: joining by address still works
    this.listener.bind(port, () => {
      for (const local of lanAddresses(this.address)) {
        try {
          this.listener.addMembership(LAN_DISCOVERY_GROUP, local);
        } catch {
          // An interface that cannot join the group (no multicast): the others still can.
        }
      }
    });
    this.timer = setInterval(() => this.tick(), LAN_ANNOUNCE_INTERVAL_MS).unref();
  }

  /** Whose networks to list: the signed-in customer's (null: none). */
  listenFor(userId: string | null): void {
    const owner = userId ? ownerTag(userId) : null;
    if (owner === this.owner) return;
    this.owner = owner;
    this.expire(true);
  }

  /** Starts (or stops, with null) announcing this device's network. */
  announce(announcement: LanAnnouncement | null): void {
    this.announcement = announcement;
    if (announcement) this.send();
  }

  networks(): Discovered[] {
    return [...this.found.values()];
  }

  find(networkId: string): Discovered | undefined {
    return this.found.get(networkId);
  }

  close(): void {
    clearInterval(this.timer);
    this.listener.close();
    for (const socket of this.senders.values()) socket.close();
  }

  private tick(): void {
    if (this.announcement) this.send();
    this.expire(false);
  }

  private send(): void {
    const message = Buffer.from(JSON.stringify(this.announcement));
    for (const local of lanAddresses(this.address)) {
      let socket = this.senders.get(local);
      if (!socket) {
        socket = createSocket('udp4');
        socket.on('error', () => undefined);
        socket.bind(0, local, () => socket!.setMulticastInterface(local));
        this.senders.set(local, socket);
      }
      socket.send(message, this.port, LAN_DISCOVERY_GROUP, () => undefined);
    }
  }

  private heard(message: Buffer, address: string): void {
    if (!this.owner || message.length > 4096) return;
    let parsed;
    try {
      parsed = LanAnnouncement.safeParse(JSON.parse(message.toString('utf8')));
    } catch {
      return;
    }
    if (!parsed.success || parsed.data.owner !== this.owner) return;
    const { network, port, certificate_sha256 } = parsed.data;
    const before = this.found.get(network.id);
    this.found.set(network.id, { ...network, address, port, certificate_sha256, seenAt: Date.now() });
    if (!before || before.address !== address || before.name !== network.name) this.onChange();
  }

  private expire(all: boolean): void {
    let changed = false;
    for (const [id, seen] of this.found)
      if (all || Date.now() - seen.seenAt > LAN_ANNOUNCE_TTL_MS) changed = this.found.delete(id) || changed;
    if (changed) this.onChange();
  }
}
