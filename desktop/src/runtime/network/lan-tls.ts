/**
 * The TLS both roles of a LAN network speak: the host's server, a member's dial, and how long
 * a device has to answer. No authority signs these certificates: each side checks the other's
 * by its SHA-256 after the handshake (the host's is pinned at join, a member's at admission).
 */
import { connect, createServer, type Server, type TLSSocket } from 'node:tls';
import type { LanToHost, LanToMember } from '@meshwork/contracts';
import { certificateFingerprint, type LanIdentity } from './lan-identity';
import type { PeerLink } from './peer-link';

/** How long a device has to say who it is after connecting, and to answer a join. */
export const HANDSHAKE_MS = 10_000;

/** The host's end of a link to a member. */
export type HostLink = PeerLink<LanToHost, LanToMember>;
/** A member's end of its link to the host. */
export type MemberLink = PeerLink<LanToMember, LanToHost>;

/** The host's server: every device presents its certificate, checked by the admission afterwards. */
export function lanServer(identity: LanIdentity, accepted: (socket: TLSSocket) => void): Server {
  const server = createServer(
    { key: identity.key, cert: identity.certificate, requestCert: true, rejectUnauthorized: false, minVersion: 'TLSv1.3' },
    accepted,
  );
  server.on('tlsClientError', () => undefined); // a stranger's failed handshake: nothing to do
  return server;
}

/** A member dials its host; the caller checks the host's certificate against the pinned one. */
export function dialHost(identity: LanIdentity, address: string, port: number): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = connect({
      host: address,
      port,
      key: identity.key,
      cert: identity.certificate,
      minVersion: 'TLSv1.3',
      // No authority signs these certificates: the host's is pinned at join and checked after the handshake.
      rejectUnauthorized: false,
      checkServerIdentity: () => undefined,
      timeout: HANDSHAKE_MS,
    });
    socket.once('secureConnect', () => {
      socket.setTimeout(0);
      resolve(socket);
    });
    socket.once('timeout', () => socket.destroy(new Error('no answer')));
    socket.once('error', reject);
  });
}

/** The SHA-256 of the certificate the other end presented. */
export function peerCertificate(socket: TLSSocket): string {
  return certificateFingerprint(socket.getPeerX509Certificate()!.raw);
}
