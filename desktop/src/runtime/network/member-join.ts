/**
 * A device joins a network with its host's code: at the api when it can be reached (it records
 * the membership and checks the plan's cap; offline, the host checks the cap itself), then at
 * the host on the LAN by the key exchange bound to both certificates (join-pake.ts), in which
 * the host proves it knows the code before this device sends anything about itself, then this
 * device's proof, its signed document and what it can hold.
 */
import { type HostRefusalReason, LAN_NETWORK_PORT, type LanNetworkInfo, type LanNodeReport, LanToMember } from '@meshwork/contracts';
import { ApiError, ApiUnreachable } from '../api/api-client';
import { HostRefusal } from '../host';
import { JoinExchange, type JoinKey, networkClaims, newSessionId } from './join-pake';
import type { Discovery } from './discovery';
import type { LanIdentity } from './lan-identity';
import { dialHost, HANDSHAKE_MS, type MemberLink, peerCertificate } from './lan-tls';
import type { NetworkApi } from './network-api';
import { failureOf, PeerLink } from './peer-link';

/** Whether the host with `certificate` may be `networkId`'s: this device's document names no other. */
function mayBeHost(discovery: Discovery, networkId: string, certificate: string): boolean {
  const vouched = discovery.vouchedFor(networkId);
  return vouched === undefined || vouched === certificate;
}

/**
 * Where to join: the address the person entered, else the announcement the window chose (by its
 * certificate, else the verified one, else the only one: when other devices announce the same
 * network, the person chooses by the certificate). Refused before anything is sent when
 * Meshwork names another host for the network.
 */
function chooseHost(
  discovery: Discovery,
  request: { network_id?: string; certificate_sha256?: string; address?: string },
): { target: { address: string; port: number }; announcedCertificate: string | undefined } {
  const networkId = request.network_id;
  let announced: ReturnType<Discovery['find']>;
  if (networkId && request.certificate_sha256) announced = discovery.find(networkId, request.certificate_sha256);
  else if (networkId) {
    const all = discovery.announcing(networkId);
    const verified = discovery.find(networkId);
    if (!verified && all.length > 1) throw new HostRefusal({ code: 'several_hosts_announce' });
    announced = verified ?? all[0];
  }
  if (networkId && announced && !mayBeHost(discovery, networkId, announced.certificate_sha256))
    throw new HostRefusal({ code: 'host_not_vouched' });
  const target = request.address ? parseAddress(request.address) : announced;
  if (!target) throw new HostRefusal({ code: 'network_not_on_lan' });
  return { target: { address: target.address, port: target.port }, announcedCertificate: announced?.certificate_sha256 };
}

function parseAddress(address: string): { address: string; port: number } {
  const at = address.lastIndexOf(':');
  return { address: address.slice(0, at).replace(/^\[|\]$/g, ''), port: Number(address.slice(at + 1)) || LAN_NETWORK_PORT };
}

export interface JoinRequest {
  network_id?: string;
  certificate_sha256?: string;
  address?: string;
  code: string;
}

export interface JoinContext {
  discovery: Discovery;
  identity: LanIdentity;
  networks: NetworkApi;
  device: { deviceId: string; deviceName: string };
  /** This device's signed document, as it came from the api. */
  entitlements: string;
  node(): Promise<LanNodeReport>;
  log(message: string): void;
}

/** Admitted: the network, the host's certificate to pin, and the open link to the host. */
export interface Joined {
  network: LanNetworkInfo;
  target: { address: string; port: number };
  hostCertificate: string;
  link: MemberLink;
}

/**
 * Joins the network `request` names; `admitted` keeps it (should anything fail, the membership
 * the api recorded is withdrawn). A HostRefusal says why not. Whether the api recorded it.
 */
export async function joinNetwork(
  request: JoinRequest,
  context: JoinContext,
  admitted: (joined: Joined) => Promise<void>,
): Promise<boolean> {
  const { target, announcedCertificate } = chooseHost(context.discovery, request);
  let joinedAtApi: string | null = null;
  try {
    const network = await context.networks.join(request.code);
    if (request.network_id && network.id !== request.network_id) throw new HostRefusal({ code: 'code_for_another_network' });
    joinedAtApi = network.id;
  } catch (error) {
    if (error instanceof ApiError) throw new HostRefusal({ code: 'api_refused', detail: error.message });
    if (!(error instanceof ApiUnreachable)) throw error;
    context.log('the api cannot be reached: joining on the LAN only');
  }
  try {
    await admitted(
      await joinHost(context, { target, code: request.code, networkId: request.network_id ?? joinedAtApi, announcedCertificate }),
    );
    return joinedAtApi !== null;
  } catch (error) {
    if (joinedAtApi) await context.networks.leave(joinedAtApi).catch(() => undefined);
    if (error instanceof HostRefusal) throw error;
    throw new HostRefusal({ code: 'host_unreachable_at', address: `${target.address}:${target.port}`, failure: failureOf(error) });
  }
}

/** The handshake with the host at `target`; a HostRefusal says why not (anything else: it could not be reached). */
async function joinHost(
  context: JoinContext,
  attempt: {
    target: { address: string; port: number };
    code: string;
    /** The network the person chose, or the api said the code is for (null: neither is known). */
    networkId: string | null;
    /** The certificate of the announcement the person chose, if they chose one. */
    announcedCertificate: string | undefined;
  },
): Promise<Joined> {
  const { identity, device, discovery } = context;
  const { target, networkId } = attempt;
  const socket = await dialHost(identity, target.address, target.port);
  const hostCertificate = peerCertificate(socket);
  if (attempt.announcedCertificate && attempt.announcedCertificate !== hostCertificate) {
    socket.destroy();
    throw new HostRefusal({ code: 'not_the_host' });
  }
  if (networkId !== null && !mayBeHost(discovery, networkId, hostCertificate)) {
    socket.destroy();
    throw new HostRefusal({ code: 'host_not_vouched' });
  }
  const link: MemberLink = new PeerLink(socket, LanToMember, null, { type: 'pong' });
  const refused = (reason: HostRefusalReason) => {
    link.close();
    return new HostRefusal(reason);
  };
  const answer = async () => {
    const frame = await link.next(HANDSHAKE_MS).catch((error: Error) => {
      throw refused({ code: 'host_did_not_answer', failure: failureOf(error) });
    });
    if (frame.header.type === 'refused') throw refused({ code: 'host_refused', reason: frame.header.reason });
    return frame.header;
  };
  const exchange = new JoinExchange('member', attempt.code, {
    sid: newSessionId(),
    hostCertificate,
    memberCertificate: identity.fingerprint,
  });
  link.send({ type: 'join', device_id: device.deviceId, device_name: device.deviceName, sid: exchange.context.sid, share: exchange.share });
  const proof = await answer();
  const key: JoinKey | null = proof.type === 'exchange' ? exchange.key(proof.share) : null;
  if (
    proof.type !== 'exchange' ||
    !key?.matches('host', proof.tag, ...networkClaims(proof.network)) ||
    (networkId !== null && proof.network.id !== networkId)
  )
    throw refused({ code: 'wrong_code' });
  if (!mayBeHost(discovery, proof.network.id, hostCertificate)) throw refused({ code: 'host_not_vouched' });
  link.send({
    type: 'confirm',
    tag: key.tag('member', device.deviceId, device.deviceName),
    entitlements: context.entitlements,
    node: await context.node(),
  });
  const admitted = await answer();
  if (admitted.type !== 'admitted') throw refused({ code: 'not_admitted' });
  return { network: proof.network, target, hostCertificate, link };
}
