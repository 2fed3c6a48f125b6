/**
 * Who the host lets in. A device that joins proves the code by the key exchange bound to both
 * certificates (join-pake.ts: one guess per run, JOIN_RUNS_PER_CODE runs per code), then shows a
 * signed document of the same account, within the plan's client cap; its certificate is pinned.
 * A member coming back is welcomed only over the certificate pinned at its join.
 */
import type { TLSSocket } from 'node:tls';
import { type JoinCode, type LanNodeReport, type LanRefusal, LanToHost } from '@meshwork/contracts';
import type { DesktopRuntime } from '../host';
import { JoinExchange, networkClaims } from './join-pake';
import { certificateFingerprint, type LanIdentity } from './lan-identity';
import { HANDSHAKE_MS, type HostLink } from './lan-tls';
import { entitledEntry, type MemberRecord, type NetworkRecordStore } from './network-record';
import { type Frame, PeerLink } from './peer-link';

/**
 * Key exchanges a join code allows that do not end with the device proving the code (those
 * under way included): each is one guess at the code, so after these the code is void.
 */
export const JOIN_RUNS_PER_CODE = 5;

export interface AdmissionContext {
  runtime: DesktopRuntime;
  identity: LanIdentity;
  store: NetworkRecordStore;
  /** The device is in: it serves the network over `link` from now on. */
  admitted(record: MemberRecord, link: HostLink, node: LanNodeReport): void;
  changed(): void;
  log(message: string): void;
}

export class HostAdmission {
  private code: JoinCode | null = null;
  /** Runs of the key exchange with this code that have not (yet) ended with the code proved. */
  private runs = 0;

  constructor(private readonly context: AdmissionContext) {}

  /** A new code from the api: the runs start again. */
  issue(code: JoinCode): void {
    this.code = code;
    this.runs = 0;
  }

  /** The code while it may still be tried: not expired, nor guessed at too often. */
  get usableCode(): JoinCode | null {
    const code = this.code;
    return code !== null && Date.parse(code.expires_at) > Date.now() && this.runs < JOIN_RUNS_PER_CODE ? code : null;
  }

  private get entry() {
    return entitledEntry(this.context.runtime.entitlements, this.context.store.current);
  }

  /** A device connected: it joins with the code, or says hello as a member. */
  async accepted(socket: TLSSocket): Promise<void> {
    const certificate = socket.getPeerX509Certificate();
    if (!certificate) return void socket.destroy();
    const fingerprint = certificateFingerprint(certificate.raw);
    // A stranger until it proves the code or a pinned certificate: small frames only.
    const link: HostLink = new PeerLink(socket, LanToHost, { type: 'ping' }, null, { trusted: false });
    const refuse = (reason: LanRefusal) => {
      link.send({ type: 'refused', reason });
      setTimeout(() => link.close(), 200).unref();
    };
    let frame: Frame<LanToHost>;
    try {
      frame = await link.next(HANDSHAKE_MS);
    } catch {
      return;
    }
    const record = this.context.store.current;
    if (record?.role !== 'host' || !this.context.runtime.entitlements) return refuse({ code: 'hosts_no_network' });
    const message = frame.header;
    if (message.type === 'join') return this.join(link, message, fingerprint, refuse);
    if (message.type !== 'hello') return refuse({ code: 'hello_first' });
    const wrong = await this.sameAccount(message.entitlements, message.device_id);
    if (wrong) return refuse(wrong);
    // The TLS session proves the certificate's key: a member's signed document from any other certificate is refused.
    const member = this.context.store.current?.members.find(
      (m) => m.device_id === message.device_id && m.certificate_sha256 === fingerprint,
    );
    if (!member) return refuse({ code: 'not_a_member' });
    this.context.log(`${member.name} is back`);
    link.send({ type: 'welcome', network: record.network });
    this.context.admitted(member, link, message.node);
  }

  /** Why a device's signed document does not admit it here (null: it does): the same account, issued to that device. */
  private async sameAccount(token: string, deviceId: string): Promise<LanRefusal | null> {
    const peer = await this.context.runtime.verifyPeerEntitlements(token);
    if (typeof peer === 'string') return { code: 'plan_unconfirmed', detail: peer.slice(0, 500) };
    if (peer.user_id !== this.context.runtime.entitlements?.user_id || peer.sub !== deviceId) return { code: 'other_account' };
    return null;
  }

  /** A device joins: the key exchange on the code, then its document and the cap. */
  private async join(
    link: HostLink,
    message: Extract<LanToHost, { type: 'join' }>,
    fingerprint: string,
    refuse: (reason: LanRefusal) => void,
  ): Promise<void> {
    const { store, runtime, identity, log } = this.context;
    const record = store.current!;
    const entry = this.entry;
    const code = this.code;
    if (!entry) return refuse({ code: 'awaiting_confirmation' });
    if (entry.status === 'suspended') return refuse({ code: 'suspended' });
    if (!code || !this.usableCode) return refuse({ code: code && this.runs >= JOIN_RUNS_PER_CODE ? 'code_overused' : 'code_invalid' });
    this.runs += 1; // a guess until the device proves the code
    if (this.runs >= JOIN_RUNS_PER_CODE) this.context.changed();
    const exchange = new JoinExchange('host', code.code, {
      sid: message.sid,
      hostCertificate: identity.fingerprint,
      memberCertificate: fingerprint,
    });
    const key = exchange.key(message.share);
    if (!key) return refuse({ code: 'code_invalid' });
    link.send({ type: 'exchange', network: record.network, share: exchange.share, tag: key.tag('host', ...networkClaims(record.network)) });
    let confirm: Frame<LanToHost>;
    try {
      confirm = await link.next(HANDSHAKE_MS);
    } catch {
      return log(`a join from ${message.device_name} did not prove the code`);
    }
    if (confirm.header.type !== 'confirm' || !key.matches('member', confirm.header.tag, message.device_id, message.device_name)) {
      log(`a join from ${message.device_name} did not prove the code`);
      return refuse({ code: 'code_invalid' });
    }
    if (this.code === code) this.runs -= 1; // proved: not a guess
    const wrong = await this.sameAccount(confirm.header.entitlements, message.device_id);
    if (wrong) return refuse(wrong);
    const current = store.current;
    const document = runtime.entitlements;
    const now = this.entry;
    if (current?.role !== 'host' || current.network.id !== record.network.id || !document || !now)
      return refuse({ code: 'hosts_no_network' });
    const others = current.members.filter((m) => m.device_id !== message.device_id);
    if (now.max_clients !== null && others.length >= now.max_clients)
      return refuse({ code: 'client_limit', plan: document.plan.name, max_clients: now.max_clients });
    const member: MemberRecord = {
      device_id: message.device_id,
      name: message.device_name,
      certificate_sha256: fingerprint,
      joined_at: new Date().toISOString(),
    };
    await store.save({ ...current, members: [...others, member] });
    link.send({ type: 'admitted', network: current.network });
    log(`admitted ${member.name} (${member.device_id})`);
    this.context.admitted(member, link, confirm.header.node);
  }
}
