/**
 * Finding networks on the LAN: a host announces its network on a UDP multicast group every
 * second, on each of its IPv4 interfaces; every signed-in device listens and lists the networks
 * of its own customer (the announcement carries a hash of the customer's id, not the id).
 *
 * An announcement is signed with the host's TLS key and carries its certificate, so a listed
 * network names the certificate a join will be bound to (the window shows it). It is *verified*
 * when this device already trusts that certificate for the network: its own verified entitlement
 * document names it as the network's host (the api vouches for what the host device registered),
 * or, where the document names none, it pinned it at its join; any other is a claim the join's
 * key exchange tests. Every announcing certificate is its own entry: a copy of the network
 * announced by another key never replaces a verified one, nor another claim. Claims are few and slow: at most UNVERIFIED_CAP listed, UNVERIFIED_PER_ADDRESS
 * from one address, and at most CHECKS_PER_SECOND signatures checked a second, so a flood costs
 * bounded memory and time.
 */
import { createHash, sign, verify, X509Certificate } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { networkInterfaces } from 'node:os';
import {
  type DiscoveredNetwork,
  LAN_ANNOUNCE_INTERVAL_MS,
  LAN_ANNOUNCE_TTL_MS,
  LAN_DISCOVERY_GROUP,
  LanAnnouncement,
} from '@meshwork/contracts';
import { certificateFingerprint, type LanIdentity } from './lan-identity';

export const ownerTag = (userId: string): string => createHash('sha256').update(`meshwork-owner\n${userId}`).digest('hex');

/** Announcements whose certificate this device does not trust yet, listed at most. */
export const UNVERIFIED_CAP = 8;
/** … of which from one source address. */
export const UNVERIFIED_PER_ADDRESS = 2;
/** Announcements whose signature is checked, a second (the rest are dropped unread). */
export const CHECKS_PER_SECOND = 50;
/** … of which from one source address. */
const CHECKS_PER_ADDRESS = 5;

/** This machine's IPv4 addresses on its LAN interfaces (or just the one it was told to use). */
export function lanAddresses(only?: string): string[] {
  if (only && only !== '0.0.0.0') return [only];
  return Object.values(networkInterfaces())
    .flat()
    .filter((i) => i !== undefined && i.family === 'IPv4' && !i.internal)
    .map((i) => i!.address);
}

export interface Discovered extends DiscoveredNetwork {
  seenAt: number;
}

/** What a host announces; Discovery adds its addresses and certificate, and signs it. */
export type Announcing = Pick<LanAnnouncement, 'owner' | 'network' | 'port'>;

/** The bytes a host signs: every field but the signature, in a fixed order (lan-attacker.ts forges with the same). */
export const signedBytes = (a: Omit<LanAnnouncement, 'signature'>): Buffer =>
  Buffer.from(
    JSON.stringify([
      a.meshwork,
      a.owner,
      a.network.id,
      a.network.name,
      a.network.model,
      a.network.host_name,
      a.addresses,
      a.port,
      a.certificate,
    ]),
  );

export class Discovery {
  private readonly listener: Socket;
  private readonly senders = new Map<string, Socket>();
  /** Verified announcements, by network id. */
  private readonly verified = new Map<string, Discovered>();
  /** Other announcements, by network id and certificate. */
  private readonly claims = new Map<string, Discovered>();
  /** The host certificate this device pinned at its join, by network id. */
  private readonly trusted = new Map<string, string>();
  /** The host certificates this device's verified entitlement document names, by network id. */
  private vouched = new Map<string, string>();
  private announcement: Announcing | null = null;
  private readonly certificate: string;
  private readonly timer: NodeJS.Timeout;
  private owner: string | null = null;
  /** The signatures checked in this second, in all and by source address. */
  private checks = { second: 0, total: 0, by: new Map<string, number>() };

  constructor(
    private readonly port: number,
    private readonly onChange: () => void,
    private readonly identity: Pick<LanIdentity, 'key' | 'certificate'>,
    private readonly address?: string,
  ) {
    this.certificate = new X509Certificate(identity.certificate).raw.toString('base64');
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

  /** The host certificate this device trusts for `networkId` (null: none any more). */
  trust(networkId: string, fingerprint: string | null): void {
    if (fingerprint === null) this.trusted.delete(networkId);
    else this.trusted.set(networkId, fingerprint);
  }

  /**
   * The hosts this device's verified entitlement document names (all of them: the ones it no
   * longer names stop being vouched for). Entries listed under the old trust are listed anew.
   */
  vouch(hosts: readonly { id: string; certificate_sha256: string }[]): void {
    this.vouched = new Map(hosts.map((h) => [h.id, h.certificate_sha256]));
    this.expire(false);
  }

  /** The host certificate the api names for `networkId`, if its document names one. */
  vouchedFor(networkId: string): string | undefined {
    return this.vouched.get(networkId);
  }

  /** The api's word first: where the document names a host, a certificate pinned earlier (a host since replaced) is not it. */
  private trusts(networkId: string, fingerprint: string): boolean {
    return (this.vouched.get(networkId) ?? this.trusted.get(networkId)) === fingerprint;
  }

  /** Starts (or stops, with null) announcing this device's network. */
  announce(announcement: Announcing | null): void {
    this.announcement = announcement;
    if (announcement) this.send();
  }

  /** Verified networks first, then the others. */
  networks(): Discovered[] {
    return [...this.verified.values(), ...this.claims.values()];
  }

  /** The networks as the window lists them, but `except` (this device's own). */
  listed(except: string | undefined): DiscoveredNetwork[] {
    return this.networks()
      .filter((n) => n.id !== except)
      .map(({ id, name, model, host_name, address, port, certificate_sha256, verified }) => ({
        id,
        name,
        model,
        host_name,
        address,
        port,
        certificate_sha256,
        verified,
      }));
  }

  /** The network as its trusted host announces it, or as the host with that certificate does. */
  find(networkId: string, certificate?: string): Discovered | undefined {
    const verified = this.verified.get(networkId);
    if (!certificate) return verified;
    return verified?.certificate_sha256 === certificate ? verified : this.claims.get(`${networkId}/${certificate}`);
  }

  /** Every announcement of `networkId`, verified or not. */
  announcing(networkId: string): Discovered[] {
    return this.networks().filter((n) => n.id === networkId);
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
    const addresses = lanAddresses(this.address);
    const unsigned = { meshwork: 2 as const, ...this.announcement!, addresses, certificate: this.certificate };
    const signature = sign('sha256', signedBytes(unsigned), this.identity.key).toString('base64');
    const message = Buffer.from(JSON.stringify({ ...unsigned, signature }));
    for (const local of addresses) {
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

  /** Whether one more signature may be checked now, for `address` (each a budget per second). */
  private mayCheck(address: string): boolean {
    const second = Math.floor(Date.now() / 1000);
    if (second !== this.checks.second) this.checks = { second, total: 0, by: new Map() };
    const from = this.checks.by.get(address) ?? 0;
    if (this.checks.total >= CHECKS_PER_SECOND || from >= CHECKS_PER_ADDRESS) return false;
    this.checks.total += 1;
    this.checks.by.set(address, from + 1);
    return true;
  }

  private heard(message: Buffer, address: string): void {
    if (!this.owner || message.length > 4096 || !this.mayCheck(address)) return;
    let announcement: LanAnnouncement;
    let fingerprint: string;
    try {
      const parsed = LanAnnouncement.safeParse(JSON.parse(message.toString('utf8')));
      if (!parsed.success || parsed.data.owner !== this.owner || !parsed.data.addresses.includes(address)) return;
      announcement = parsed.data;
      const { signature, ...unsigned } = announcement;
      const certificate = new X509Certificate(Buffer.from(announcement.certificate, 'base64'));
      if (!verify('sha256', signedBytes(unsigned), certificate.publicKey, Buffer.from(signature, 'base64'))) return;
      fingerprint = certificateFingerprint(certificate.raw);
    } catch {
      return; // not JSON, or not a certificate: not an announcement
    }
    const { network, port } = announcement;
    const seen: Discovered = {
      ...network,
      address,
      port,
      certificate_sha256: fingerprint,
      verified: this.trusts(network.id, fingerprint),
      seenAt: Date.now(),
    };
    const key = `${network.id}/${fingerprint}`;
    const before = seen.verified ? this.verified.get(network.id) : this.claims.get(key);
    if (!seen.verified && !before) {
      const claims = [...this.claims.values()];
      if (claims.length >= UNVERIFIED_CAP || claims.filter((c) => c.address === address).length >= UNVERIFIED_PER_ADDRESS) return;
    }
    if (seen.verified) this.verified.set(network.id, seen);
    else this.claims.set(key, seen);
    if (!before || before.address !== address || before.name !== network.name || before.port !== port) this.onChange();
  }

  private expire(all: boolean): void {
    let changed = false;
    for (const list of [this.verified, this.claims])
      for (const [key, seen] of list)
        if (all || Date.now() - seen.seenAt > LAN_ANNOUNCE_TTL_MS || seen.verified !== this.trusts(seen.id, seen.certificate_sha256))
          changed = list.delete(key) || changed;
    if (changed) this.onChange();
  }
}
