/**
 * This device's network on the LAN (issue 14, section 4). As the **host** it registers the
 * network with the api, shows its join code, announces it, admits the customer's devices that
 * prove the code (up to the plan's client cap from its signed document, so the cap holds
 * offline), pins their certificates, and runs the model across them. As a **client** it joins
 * with the code, pins the host's certificate, stays connected and runs the blocks it is given.
 * The code is proved by a key exchange bound to both certificates (join-pake.ts), never sent.
 */
import { EventEmitter } from 'node:events';
import { freemem } from 'node:os';
import { basename, join } from 'node:path';
import { connect, createServer, type Server, type TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import {
  type DiscoveredNetwork,
  type EntitledNetwork,
  type EntitlementDocument,
  type HostNetwork,
  type HostNetworkMember,
  JoinCode,
  LAN_DISCOVERY_PORT,
  LAN_NETWORK_PORT,
  LanNetworkInfo,
  type LanNodeReport,
  LanToHost,
  LanToMember,
  Network,
} from '@meshwork/contracts';
import { ApiError, ApiUnreachable } from '../api/api-client';
import { readManifest } from '../../engine/local-model';
import { type Host, HostRefusal } from '../host';
import { JsonFile } from '../platform/json-file';
import { blockCosts, CannotAssign, planAssignment, stagesOf } from './assign-blocks';
import { BlockWorker, CacheMissing } from './block-worker';
import { Discovery, lanAddresses, ownerTag } from './discovery';
import { JoinExchange, type JoinKey, newSessionId } from './join-pake';
import { certificateFingerprint, type LanIdentity, lanIdentity } from './lan-identity';
import { measureSpeed, measuredSpeed, nodeReport } from './node-report';
import { asFloat32, asInt64, type Frame, PeerLink, PeerLost } from './peer-link';
import { LocalStage, NetworkUnavailable, Pipeline, type Stage } from './pipeline';

export interface LanConfig {
  dataDir: string;
  /** The address the network's TLS port and announcements use (every LAN interface by default). */
  address: string;
  port: number;
  discoveryPort?: number;
  threads?: number;
  log?: (message: string) => void;
}

const MemberRecord = z.object({ device_id: z.string(), name: z.string(), certificate_sha256: z.string(), joined_at: z.string() });
type MemberRecord = z.output<typeof MemberRecord>;
const NetworkRecord = z.object({
  network: LanNetworkInfo,
  role: z.enum(['host', 'client']),
  /** The host: the clients it admitted, their certificates pinned. */
  members: z.array(MemberRecord).default([]),
  /** A client: where its host was last reached, and the host's pinned certificate. */
  host: z.object({ address: z.string(), port: z.number().int(), certificate_sha256: z.string() }).nullable().default(null),
  /** Whether a signed document has listed this network for this device (after that, its absence means it ended). */
  confirmed: z.boolean().default(false),
});
type NetworkRecord = z.output<typeof NetworkRecord>;

/** How long a device has to say who it is after connecting, and to answer a join. */
const HANDSHAKE_MS = 10_000;
/** A member loads its blocks from disk: generous, but bounded. */
const LOAD_MS = 120_000;
const RECONNECT_MS = [500, 1000, 2000, 5000];
/**
 * Key exchanges a join code allows that do not end with the device proving the code (those
 * under way included): each is one guess at the code, so after these the code is void.
 */
export const JOIN_RUNS_PER_CODE = 5;

const IMPOSTOR =
  'The device at that address is not this network’s host: Meshwork names another certificate for it. Join the entry marked verified.';

/** What the host's proof of the code covers: the network the device is about to join. */
const networkClaims = (network: LanNetworkInfo): string[] => [network.id, network.name, network.model];

interface LiveMember {
  record: MemberRecord;
  link: PeerLink<LanToHost, LanToMember>;
  node: LanNodeReport;
  /** Why the host leaves it out of the plan (a failure, or it may not run the model now); cleared by its next report. */
  unusable: string | null;
}

type HostLink = PeerLink<LanToHost, LanToMember>;
type MemberLink = PeerLink<LanToMember, LanToHost>;

export class LanNetwork extends EventEmitter<{ change: [] }> {
  private record: NetworkRecord | null = null;
  private readonly file: JsonFile<typeof NetworkRecord>;
  private readonly discovery: Discovery;
  private server: Server | null = null;
  private readonly live = new Map<string, LiveMember>();
  private joinCode: JoinCode | null = null;
  /** Runs of the key exchange with this code that have not (yet) ended with the code proved. */
  private joinRuns = 0;
  /** The blocks this device runs (as host, its own stage; as client, what its host gave it). */
  private worker: BlockWorker | null = null;
  private pipeline: { model: string; version: string; pipeline: Pipeline } | null = null;
  private planned = new Map<string, number[]>();
  private hostLink: MemberLink | null = null;
  private clientView: { members: HostNetworkMember[]; message: string | null } = { members: [], message: null };
  private reconnect: NodeJS.Timeout | null = null;
  /** Networks whose host this device registered its certificate for in this run (once each: no loop if it does not take). */
  private readonly registered = new Set<string>();
  private closed = false;
  private readonly changed: () => void;

  private constructor(
    private readonly host: Host,
    private readonly identity: LanIdentity,
    private readonly config: LanConfig,
  ) {
    super();
    this.file = new JsonFile(join(config.dataDir, 'lan-network.json'), NetworkRecord);
    this.discovery = new Discovery(config.discoveryPort ?? LAN_DISCOVERY_PORT, () => this.notify(), identity, config.address);
    this.changed = host.attachNetwork(() => ({ network: this.view(), discovered: this.discovered() }));
    host.on('entitlements', (document) => void this.enforce(document));
  }

  static async open(host: Host, config: LanConfig): Promise<LanNetwork> {
    const identity = await lanIdentity(config.dataDir, host.signedInDevice?.deviceName ?? 'Meshwork host');
    const network = new LanNetwork(host, identity, config);
    network.record = await network.file.read();
    await network.enforce(host.entitlements);
    return network;
  }

  private log(message: string): void {
    this.config.log?.(`network: ${message}`);
  }

  private notify(): void {
    this.changed();
    this.emit('change');
  }

  // ---- What the window shows -------------------------------------------------------------

  private discovered(): DiscoveredNetwork[] {
    return this.discovery
      .networks()
      .filter((n) => n.id !== this.record?.network.id)
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

  private entry(): EntitledNetwork | undefined {
    const record = this.record;
    return this.host.entitlements?.networks.find((n) => n.id === record?.network.id && n.role === record?.role);
  }

  private view(): HostNetwork | null {
    const record = this.record;
    if (!record) return null;
    const entry = this.entry();
    const common = { ...record.network, role: record.role, status: entry?.status ?? 'active', max_clients: entry?.max_clients ?? null };
    if (record.role === 'client')
      return {
        ...common,
        join_code: null,
        addresses: [],
        connected: this.hostLink !== null && !this.hostLink.isClosed,
        members: this.clientView.members,
        message: this.clientView.message,
        certificate_sha256: record.host?.certificate_sha256 ?? null,
      };
    const self: HostNetworkMember = {
      device_id: this.host.signedInDevice?.deviceId ?? '',
      name: this.host.signedInDevice?.deviceName ?? '',
      role: 'host',
      online: true,
      blocks: this.planned.get('self') ?? [],
      free_memory_bytes: freemem(),
      speed: measuredSpeed(),
      joined_at: new Date(0).toISOString(),
    };
    const members = record.members.map((m): HostNetworkMember => {
      const live = this.live.get(m.device_id);
      return {
        device_id: m.device_id,
        name: m.name,
        role: 'client',
        online: live !== undefined,
        blocks: this.planned.get(m.device_id) ?? [],
        free_memory_bytes: live?.node.free_memory_bytes ?? 0,
        speed: live?.node.speed ?? 0,
        joined_at: m.joined_at,
      };
    });
    const port = (this.server?.address() as AddressInfo | null)?.port;
    return {
      ...common,
      join_code: this.codeUsable() ? this.joinCode : null,
      addresses: port ? lanAddresses(this.config.address).map((a) => `${a}:${port}`) : [],
      connected: true,
      members: [self, ...members],
      message: this.hostMessage(),
      certificate_sha256: this.identity.fingerprint,
    };
  }

  /** Whether the join code may still be tried: not expired, nor guessed at too often. */
  private codeUsable(): boolean {
    return this.joinCode !== null && Date.parse(this.joinCode.expires_at) > Date.now() && this.joinRuns < JOIN_RUNS_PER_CODE;
  }

  private hostMessage(): string | null {
    const record = this.record!;
    const entry = this.entry();
    if (!entry) return 'Waiting for Meshwork to confirm this network.';
    if (entry.status === 'suspended') return 'This network is suspended: your plan allows fewer networks, or no longer includes its model.';
    const serving = this.host.serving();
    if (!serving.allowed) return serving.reason;
    if (this.host.models.pathOf(record.network.model) === null)
      return `Download ${record.network.model} on this device to run the network.`;
    return null;
  }

  // ---- Commands from the window ------------------------------------------------------------

  private signedIn() {
    const signed = this.host.signedInDevice;
    if (!signed) throw new HostRefusal('Sign in first.');
    return signed;
  }

  /** Creates a network at the api for a model the plan allows, makes this device its host, and issues a join code. */
  async create(name: string, model: string): Promise<void> {
    const { api } = this.signedIn();
    if (this.record) throw new HostRefusal('This device is already in a network: leave it first.');
    const network = await api.request('/networks/create/', { body: { name, model_id: model }, schema: Network });
    await this.registerHost(network.id);
    // The code first: the window shows the network and its code together.
    this.joinCode = await api.request(`/networks/${network.id}/join-code/`, { body: {}, schema: JoinCode });
    this.joinRuns = 0;
    await this.save({
      network: { id: network.id, name: network.name, model: network.model },
      role: 'host',
      members: [],
      host: null,
      confirmed: false,
    });
    await this.host.refreshEntitlements().catch((error: Error) => this.log(`entitlements: ${error.message}`));
    await this.enforce(this.host.entitlements);
  }

  /**
   * Makes this device the network's host at the api, with its LAN certificate: the api names
   * it in every document of the account, so the customer's other devices know the real host's
   * announcements before they join.
   */
  private async registerHost(networkId: string): Promise<void> {
    const { api, deviceId } = this.signedIn();
    this.registered.add(networkId);
    await api.request(`/networks/${networkId}/host/`, {
      body: { device_id: deviceId, certificate_sha256: this.identity.fingerprint },
      schema: Network,
    });
  }

  async newJoinCode(): Promise<void> {
    const { api } = this.signedIn();
    const record = this.record;
    if (record?.role !== 'host') throw new HostRefusal('Only the network’s host issues join codes.');
    this.joinCode = await api.request(`/networks/${record.network.id}/join-code/`, { body: {}, schema: JoinCode });
    this.joinRuns = 0;
    this.notify();
  }

  /**
   * Joins a network on this LAN with its host's code: at the api when it can be reached, then
   * at the host itself, by the key exchange: the host proves it knows the code before this
   * device sends anything about itself.
   */
  async join(request: { network_id?: string; certificate_sha256?: string; address?: string; code: string }): Promise<void> {
    const { api, deviceId, deviceName } = this.signedIn();
    if (this.record) throw new HostRefusal('This device is already in a network: leave it first.');
    const token = this.host.entitlementToken;
    if (!token) throw new HostRefusal('Waiting for this device’s plan from Meshwork.');
    const announced = request.network_id ? this.announced(request.network_id, request.certificate_sha256) : undefined;
    // Refused before anything is sent: Meshwork names another host for this network.
    if (request.network_id && announced && !this.mayBeHost(request.network_id, announced.certificate_sha256))
      throw new HostRefusal(IMPOSTOR);
    const target = request.address ? parseAddress(request.address) : announced;
    if (!target) throw new HostRefusal('This network is not on this LAN now. Enter its host’s address as its window shows it.');

    // The api records the membership and checks the plan's cap; offline, the host checks the cap itself.
    let joinedAtApi: string | null = null;
    try {
      const network = await api.request('/networks/join/', { body: { code: request.code }, schema: Network });
      if (request.network_id && network.id !== request.network_id) throw new HostRefusal('This code is for another network.');
      joinedAtApi = network.id;
    } catch (error) {
      if (error instanceof ApiError) throw new HostRefusal(error.message);
      if (!(error instanceof ApiUnreachable)) throw error;
      this.log('the api cannot be reached: joining on the LAN only');
    }
    try {
      const socket = await this.connectTo(target.address, target.port);
      const hostCertificate = certificateFingerprint(socket.getPeerX509Certificate()!.raw);
      if (announced && announced.certificate_sha256 !== hostCertificate) {
        socket.destroy();
        throw new HostRefusal('The device at that address is not this network’s host.');
      }
      const knownNetwork = request.network_id ?? joinedAtApi;
      if (knownNetwork !== null && !this.mayBeHost(knownNetwork, hostCertificate)) {
        socket.destroy();
        throw new HostRefusal(IMPOSTOR);
      }
      const link: MemberLink = new PeerLink(socket, LanToMember, null, { type: 'pong' });
      const refused = (message: string) => {
        link.close();
        return new HostRefusal(message);
      };
      const answer = async () => {
        const frame = await link.next(HANDSHAKE_MS).catch((error: Error) => {
          throw refused(`The host did not answer: ${error.message}`);
        });
        if (frame.header.type === 'refused') throw refused(frame.header.message);
        return frame.header;
      };
      const exchange = new JoinExchange('member', request.code, {
        sid: newSessionId(),
        hostCertificate,
        memberCertificate: this.identity.fingerprint,
      });
      link.send({ type: 'join', device_id: deviceId, device_name: deviceName, sid: exchange.context.sid, share: exchange.share });
      const proof = await answer();
      const networkId = request.network_id ?? joinedAtApi;
      const key: JoinKey | null = proof.type === 'exchange' ? exchange.key(proof.share) : null;
      if (
        proof.type !== 'exchange' ||
        !key?.matches('host', proof.tag, ...networkClaims(proof.network)) ||
        (networkId !== null && proof.network.id !== networkId)
      )
        throw refused('This join code is wrong, or the device at that address is not this network’s host.');
      if (!this.mayBeHost(proof.network.id, hostCertificate)) throw refused(IMPOSTOR);
      link.send({ type: 'confirm', tag: key.tag('member', deviceId, deviceName), entitlements: token, node: await nodeReport(this.host) });
      const admitted = await answer();
      if (admitted.type !== 'admitted') throw refused('The host did not admit this device.');
      await this.save({
        network: proof.network,
        role: 'client',
        members: [],
        host: { address: target.address, port: target.port, certificate_sha256: hostCertificate },
        confirmed: false,
      });
      this.clientView = { members: [], message: null };
      this.serveHost(link);
      if (joinedAtApi) await this.host.refreshEntitlements().catch((error: Error) => this.log(`entitlements: ${error.message}`));
    } catch (error) {
      if (joinedAtApi) await api.request(`/networks/${joinedAtApi}/leave/`, { body: {}, schema: Network }).catch(() => undefined);
      if (error instanceof HostRefusal) throw error;
      throw new HostRefusal(`The network’s host cannot be reached at ${target.address}:${target.port}: ${(error as Error).message}`);
    }
  }

  /**
   * The announcement the window chose: by its certificate, else the verified one, else the only
   * one (when other devices announce the same network, the person chooses by the certificate).
   */
  private announced(networkId: string, certificate: string | undefined) {
    if (certificate) return this.discovery.find(networkId, certificate);
    const all = this.discovery.announcing(networkId);
    const verified = this.discovery.find(networkId);
    if (!verified && all.length > 1)
      throw new HostRefusal('Several devices announce this network: choose the one whose certificate its host’s window shows.');
    return verified ?? all[0];
  }

  /** Whether the host with `certificate` may be `networkId`'s: this device's document names no other. */
  private mayBeHost(networkId: string, certificate: string): boolean {
    const vouched = this.discovery.vouchedFor(networkId);
    return vouched === undefined || vouched === certificate;
  }

  /** A client leaves; the host stops hosting (the network stays on the account for another host). */
  async leave(): Promise<void> {
    const record = this.record;
    if (!record) return;
    const api = this.host.signedInDevice?.api;
    const path = record.role === 'client' ? `/networks/${record.network.id}/leave/` : `/networks/${record.network.id}/host/`;
    await api
      ?.request(path, {
        method: record.role === 'client' ? 'POST' : 'DELETE',
        body: record.role === 'client' ? {} : undefined,
        schema: Network,
      })
      .catch((error: Error) => this.log(`leave: ${error.message}`));
    await this.forget(record.role === 'host' ? 'The host stopped hosting this network.' : null);
  }

  async removeMember(deviceId: string): Promise<void> {
    const record = this.record;
    if (record?.role !== 'host') throw new HostRefusal('Only the network’s host removes devices.');
    if (!record.members.some((m) => m.device_id === deviceId)) throw new HostRefusal('That device is not in this network.');
    await this.host.signedInDevice?.api
      .request(`/networks/${record.network.id}/clients/${deviceId}/`, { method: 'DELETE', schema: Network })
      .catch((error: Error) => this.log(`remove: ${error.message}`));
    await this.dropMembers([deviceId], 'The network’s host removed this device.');
  }

  // ---- Serving the model across the network --------------------------------------------

  /** The pipeline that serves `model` across this network, when this device hosts a running network for it. */
  async pipelineFor(model: string, version: string): Promise<Pipeline | null> {
    const record = this.record;
    if (record?.role !== 'host' || record.network.model !== model || this.hostMessage() !== null) return null;
    if (this.pipeline?.model !== model || this.pipeline.version !== version) {
      const directory = this.host.models.pathOf(model)!;
      const manifest = await readManifest(directory);
      this.pipeline = {
        model,
        version,
        pipeline: new Pipeline(
          manifest.contextLength,
          () => this.plan(directory, model, version),
          (deviceId, reason) => this.markUnusable(deviceId, reason),
        ),
      };
    }
    return this.pipeline.pipeline;
  }

  /**
   * Plans the model across the devices now (loading their blocks), rather than at the next
   * request: the first answer is not slowed, and the window shows who holds which blocks.
   */
  private warm(): void {
    const record = this.record;
    if (record?.role !== 'host') return;
    const installed = this.host.state().models.find((m) => m.name === record.network.model && m.allowed && m.status === 'installed');
    if (!installed) return;
    void this.pipelineFor(installed.name, installed.version)
      .then((pipeline) => pipeline?.current())
      .catch((error: Error) => this.log(`plan: ${error.message}`));
  }

  private markUnusable(deviceId: string, reason: string): void {
    this.log(`device ${deviceId} left the plan: ${reason}`);
    const live = this.live.get(deviceId);
    if (live) live.unusable = reason;
  }

  /** Assigns the blocks to the devices that can run them now and loads them there. */
  private async plan(directory: string, model: string, version: string): Promise<Stage[]> {
    const message = this.hostMessage();
    if (message) throw new NetworkUnavailable(message);
    const manifest = await readManifest(directory);
    const costs = blockCosts(manifest.blocks);
    for (;;) {
      const candidates = [...this.live.values()].filter(
        (m) => m.unusable === null && !m.link.isClosed && m.node.models.some((x) => x.name === model && x.version === version),
      );
      const devices = [
        { id: 'self', freeMemoryBytes: freemem(), speed: await measureSpeed() },
        ...candidates.map((m) => ({ id: m.record.device_id, freeMemoryBytes: m.node.free_memory_bytes, speed: m.node.speed })),
      ];
      let assignment: Map<string, number[]>;
      try {
        assignment = planAssignment(
          manifest.blocks.map((b) => ({ index: b.index, cost: costs[b.index]!, memoryBytes: b.memoryBytes })),
          devices,
        );
      } catch (error) {
        if (error instanceof CannotAssign) throw new NetworkUnavailable(error.message);
        throw error;
      }
      const failed: string[] = [];
      await Promise.all(
        candidates.map(async (member) => {
          const blocks = assignment.get(member.record.device_id) ?? [];
          try {
            const reply = await member.link.request({ type: 'load', id: 0, model, version, blocks }, undefined, LOAD_MS);
            const error = reply.header.type === 'reply' ? reply.header.error : null;
            if (error) throw new Error(error.message);
          } catch (error) {
            this.markUnusable(member.record.device_id, `could not load its blocks: ${(error as Error).message}`);
            failed.push(member.record.device_id);
          }
        }),
      );
      if (failed.some((id) => assignment.has(id))) continue; // planned again without them
      const own = assignment.get('self') ?? [];
      if (!this.worker?.holds(model, version, own)) {
        await this.worker?.close();
        this.worker = null;
        if (own.length > 0) this.worker = await BlockWorker.load(directory, model, version, own, this.config.threads);
      }
      this.planned = new Map([...assignment].map(([id, blocks]) => [id, [...blocks].sort((a, b) => a - b)]));
      this.notify();
      this.broadcastMembers();
      this.log(`plan: ${[...assignment].map(([id, blocks]) => `${id}=${blocks.join(',')}`).join(' ')}`);
      const stages = stagesOf(assignment).map(({ deviceId, first, end }): Stage => {
        if (deviceId === 'self') return new LocalStage(deviceId, first, end, this.worker!);
        const link = this.live.get(deviceId)!.link;
        return new RemoteStage(deviceId, first, end, link, manifest.hidden, manifest.vocabSize, manifest.blocks.length);
      });
      return stages;
    }
  }

  // ---- The host's side of the LAN --------------------------------------------------------

  private async startServing(): Promise<void> {
    if (this.server) return;
    const server = createServer(
      { key: this.identity.key, cert: this.identity.certificate, requestCert: true, rejectUnauthorized: false, minVersion: 'TLSv1.3' },
      (socket) => void this.accepted(socket),
    );
    server.on('tlsClientError', () => undefined); // a stranger's failed handshake: nothing to do
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.config.port, this.config.address, resolve);
    });
    this.log(`listening on ${this.config.address}:${(server.address() as AddressInfo).port}`);
    await measureSpeed(); // shown among the members before the first plan
  }

  private async stopServing(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.discovery.announce(null);
    for (const member of this.live.values()) member.link.close();
    this.live.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async accepted(socket: TLSSocket): Promise<void> {
    const certificate = socket.getPeerX509Certificate();
    if (!certificate) return void socket.destroy();
    const fingerprint = certificateFingerprint(certificate.raw);
    // A stranger until it proves the code or a pinned certificate: small frames only.
    const link: HostLink = new PeerLink(socket, LanToHost, { type: 'ping' }, null, { trusted: false });
    const refuse = (message: string) => {
      link.send({ type: 'refused', message });
      setTimeout(() => link.close(), 200).unref();
    };
    let frame: Frame<LanToHost>;
    try {
      frame = await link.next(HANDSHAKE_MS);
    } catch {
      return;
    }
    const record = this.record;
    const document = this.host.entitlements;
    if (record?.role !== 'host' || !document) return refuse('This device hosts no network.');
    const message = frame.header;
    if (message.type === 'join') return this.admit(link, message, fingerprint, refuse);
    if (message.type !== 'hello') return refuse('Say who you are first.');
    const wrong = await this.sameAccount(message.entitlements, message.device_id);
    if (wrong) return refuse(wrong);
    // The TLS session proves the certificate's key: a member's signed document from any other certificate is refused.
    const member = this.record?.members.find((m) => m.device_id === message.device_id && m.certificate_sha256 === fingerprint);
    if (!member) return refuse('This device is not a member of the network: join it with the code.');
    this.log(`${member.name} is back`);
    link.send({ type: 'welcome', network: record.network });
    this.online(member, link, message.node);
  }

  /** Why a device's signed document does not admit it here (null: it does): the same account, issued to that device. */
  private async sameAccount(token: string, deviceId: string): Promise<string | null> {
    const peer = await this.host.verifyPeerEntitlements(token);
    if (typeof peer === 'string') return `This device’s plan could not be confirmed: ${peer}`;
    if (peer.user_id !== this.host.entitlements?.user_id || peer.sub !== deviceId)
      return 'Only devices of the same Meshwork account can join this network.';
    return null;
  }

  /** A device joins: the key exchange on the code (one guess per run, JOIN_RUNS_PER_CODE runs), then its document and the cap. */
  private async admit(
    link: HostLink,
    message: Extract<LanToHost, { type: 'join' }>,
    fingerprint: string,
    refuse: (message: string) => void,
  ): Promise<void> {
    const record = this.record!;
    const entry = this.entry();
    const code = this.joinCode;
    if (!entry) return refuse('Meshwork has not confirmed this network yet; try again in a moment.');
    if (entry.status === 'suspended') return refuse('This network is suspended.');
    if (!code || !this.codeUsable())
      return refuse(
        code && this.joinRuns >= JOIN_RUNS_PER_CODE
          ? 'This join code was tried too many times: issue a new one on the host.'
          : 'This join code is invalid or has expired.',
      );
    this.joinRuns += 1; // a guess until the device proves the code
    if (this.joinRuns >= JOIN_RUNS_PER_CODE) this.notify();
    const exchange = new JoinExchange('host', code.code, {
      sid: message.sid,
      hostCertificate: this.identity.fingerprint,
      memberCertificate: fingerprint,
    });
    const key = exchange.key(message.share);
    if (!key) return refuse('This join code is invalid or has expired.');
    link.send({ type: 'exchange', network: record.network, share: exchange.share, tag: key.tag('host', ...networkClaims(record.network)) });
    let confirm: Frame<LanToHost>;
    try {
      confirm = await link.next(HANDSHAKE_MS);
    } catch {
      return this.log(`a join from ${message.device_name} did not prove the code`);
    }
    if (confirm.header.type !== 'confirm' || !key.matches('member', confirm.header.tag, message.device_id, message.device_name)) {
      this.log(`a join from ${message.device_name} did not prove the code`);
      return refuse('This join code is invalid or has expired.');
    }
    if (this.joinCode === code) this.joinRuns -= 1; // proved: not a guess
    const wrong = await this.sameAccount(confirm.header.entitlements, message.device_id);
    if (wrong) return refuse(wrong);
    const current = this.record;
    const document = this.host.entitlements;
    const now = this.entry();
    if (current?.role !== 'host' || current.network.id !== record.network.id || !document || !now)
      return refuse('This device hosts no network.');
    const others = current.members.filter((m) => m.device_id !== message.device_id);
    if (now.max_clients !== null && others.length >= now.max_clients)
      return refuse(
        `Your ${document.plan.name} plan allows ${now.max_clients} client${now.max_clients === 1 ? '' : 's'} per network. Upgrade to add more.`,
      );
    const member: MemberRecord = {
      device_id: message.device_id,
      name: message.device_name,
      certificate_sha256: fingerprint,
      joined_at: new Date().toISOString(),
    };
    await this.save({ ...current, members: [...others, member] });
    link.send({ type: 'admitted', network: current.network });
    this.log(`admitted ${member.name} (${member.device_id})`);
    this.online(member, link, confirm.header.node);
  }

  private online(record: MemberRecord, link: HostLink, node: LanNodeReport): void {
    link.trust();
    this.live.get(record.device_id)?.link.close();
    const member: LiveMember = { record, link, node, unusable: null };
    this.live.set(record.device_id, member);
    link.serve(({ header }) => {
      if (header.type === 'status') {
        member.node = header.node;
        member.unusable = null;
        this.pipeline?.pipeline.invalidate();
        this.warm();
        this.notify();
      } else if (header.type === 'leave') {
        void this.dropMembers([record.device_id], null);
      }
    });
    link.on('close', (reason) => {
      if (this.live.get(record.device_id) !== member) return;
      this.live.delete(record.device_id);
      this.log(`${record.name} went offline: ${reason.message}`);
      this.pipeline?.pipeline.lost(record.device_id, reason.message);
      this.planned.delete(record.device_id);
      this.warm();
      this.notify();
      this.broadcastMembers();
    });
    // New work is planned with the device; answers under way replay into the new plan.
    this.pipeline?.pipeline.invalidate();
    this.warm();
    this.notify();
    this.broadcastMembers();
  }

  private broadcastMembers(): void {
    const members = this.view()?.members ?? [];
    for (const member of this.live.values()) member.link.send({ type: 'members', members });
  }

  private async dropMembers(deviceIds: string[], message: string | null): Promise<void> {
    const record = this.record;
    if (record?.role !== 'host') return;
    await this.save({ ...record, members: record.members.filter((m) => !deviceIds.includes(m.device_id)) });
    for (const id of deviceIds) {
      const live = this.live.get(id);
      if (!live) continue;
      if (message) live.link.send({ type: 'removed', message });
      setTimeout(() => live.link.close(), 200).unref();
    }
    this.pipeline?.pipeline.invalidate();
    this.warm();
    this.notify();
  }

  // ---- A client's side --------------------------------------------------------------------

  private connectTo(address: string, port: number): Promise<TLSSocket> {
    return new Promise((resolve, reject) => {
      const socket = connect({
        host: address,
        port,
        key: this.identity.key,
        cert: this.identity.certificate,
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

  /** Keeps the connection to the host: reconnects with backoff while this device is a client. */
  private async connectToHost(attempt = 0): Promise<void> {
    this.reconnect = null;
    const record = this.record;
    const token = this.host.entitlementToken;
    const signed = this.host.signedInDevice;
    if (this.closed || record?.role !== 'client' || !record.host || !token || !signed || this.hostLink) return;
    const announced = this.discovery.find(record.network.id);
    const target = announced?.certificate_sha256 === record.host.certificate_sha256 ? announced : record.host;
    try {
      const socket = await this.connectTo(target.address, target.port);
      if (certificateFingerprint(socket.getPeerX509Certificate()!.raw) !== record.host.certificate_sha256) {
        socket.destroy();
        throw new Error('the device at that address is not this network’s host');
      }
      const link: MemberLink = new PeerLink(socket, LanToMember, null, { type: 'pong' });
      link.send({ type: 'hello', device_id: signed.deviceId, entitlements: token, node: await nodeReport(this.host) });
      const answer = await link.next(HANDSHAKE_MS);
      if (answer.header.type === 'refused') {
        link.close();
        this.clientView = { members: [], message: answer.header.message };
        this.notify();
        return this.retryLater(RECONNECT_MS.length - 1);
      }
      if (answer.header.type !== 'welcome') throw new Error('the host did not welcome this device');
      if (target !== record.host) await this.save({ ...record, host: { ...record.host, address: target.address, port: target.port } });
      this.log('connected to the host');
      this.serveHost(link);
    } catch (error) {
      this.log(`the host cannot be reached: ${(error as Error).message}`);
      this.clientView = { ...this.clientView, message: `The network’s host cannot be reached: ${(error as Error).message}` };
      this.notify();
      this.retryLater(attempt + 1);
    }
  }

  private retryLater(attempt: number): void {
    if (this.closed || this.reconnect) return;
    const delay = RECONNECT_MS[Math.min(attempt, RECONNECT_MS.length - 1)]!;
    this.reconnect = setTimeout(() => void this.connectToHost(attempt), delay).unref();
  }

  /** Runs what the host asks of this device over `link` until it closes. */
  private serveHost(link: MemberLink): void {
    this.hostLink = link;
    this.clientView = { ...this.clientView, message: null };
    this.notify();
    const report = () => void nodeReport(this.host).then((node) => link.send({ type: 'status', node }));
    this.host.models.on('change', report);
    link.serve((frame) => void this.hostAsked(link, frame));
    link.on('close', (reason) => {
      this.host.models.off('change', report);
      if (this.hostLink !== link) return;
      this.hostLink = null;
      this.log(`lost the host: ${reason.message}`);
      if (this.record?.role !== 'client') return;
      this.clientView = {
        members: this.clientView.members.map((m) => ({ ...m, online: false })),
        message: `The network’s host is offline: ${reason.message}`,
      };
      this.notify();
      this.retryLater(0);
    });
  }

  private async hostAsked(link: MemberLink, { header, payload }: Frame<LanToMember>): Promise<void> {
    switch (header.type) {
      case 'members':
        this.clientView = { ...this.clientView, members: header.members };
        return this.notify();
      case 'removed':
        link.close();
        return this.forget(header.message);
      case 'release':
        return this.worker?.release(header.seq);
      case 'load':
        return this.reply(link, header.id, async () => {
          this.mayRun(header.model, header.version);
          if (this.worker?.holds(header.model, header.version, header.blocks)) return;
          await this.worker?.close();
          this.worker = null;
          if (header.blocks.length > 0)
            this.worker = await BlockWorker.load(
              this.host.models.pathOf(header.model)!,
              header.model,
              header.version,
              header.blocks,
              this.config.threads,
            );
          this.notify();
        });
      case 'forward': {
        return this.reply(link, header.id, async () => {
          const worker = this.worker;
          if (!worker) throw new CacheMissing('This device holds no blocks.');
          this.mayRun(worker.model, worker.version);
          if (header.end_block > worker.manifest.blocks.length || header.first_block >= header.end_block)
            throw new Error('No such blocks.');
          if (payload.length !== worker.inputBytes(header.first_block, header.tokens))
            throw new Error('The input does not have the size its blocks take.');
          const input = header.first_block === 0 ? asInt64(payload) : asFloat32(payload);
          return worker.forward(header.seq, header.position, header.first_block, header.end_block, input, header.tokens);
        });
      }
      default:
        return;
    }
  }

  /** Refuses work for a model this device's own plan does not let it run now. */
  private mayRun(model: string, version: string): void {
    // Asked for every position a block runs: the checks, not the whole state.
    const serving = this.host.serving();
    if (!serving.allowed) throw new RunRefused(serving.reason ?? 'This device may not run models now.');
    const allowed = this.host.entitlements?.models.some((m) => m.name === model && m.version === version);
    const installed = this.host.models.pathOf(model);
    if (!allowed || installed === null || basename(installed) !== version)
      throw new RunRefused(`This device does not have ${model} ${version}, or its plan does not include it.`);
  }

  private async reply(link: MemberLink, id: number, work: () => Promise<Float32Array | void>): Promise<void> {
    try {
      const output = await work();
      link.send({ type: 'reply', id, error: null }, output ?? undefined);
    } catch (error) {
      const kind = error instanceof CacheMissing ? 'cache_missing' : error instanceof RunRefused ? 'refused' : 'failed';
      link.send({ type: 'reply', id, error: { kind, message: (error as Error).message.slice(0, 2000) } });
    }
  }

  // ---- Following the signed document ----------------------------------------------------

  /**
   * Applies the plan as the signed document says, at once: a network that ended is forgotten,
   * a suspended one stops, clients above the cap are disconnected newest first.
   */
  private async enforce(document: EntitlementDocument | null): Promise<void> {
    this.discovery.listenFor(document?.user_id ?? null);
    this.discovery.vouch(document?.hosts ?? []);
    const record = this.record;
    if (!record) return this.notify();
    if (record.host) this.discovery.trust(record.network.id, record.host.certificate_sha256);
    if (!document) {
      if (!this.host.signedInDevice) await this.forget(null);
      return this.notify();
    }
    const entry = this.entry();
    if (entry && !record.confirmed) await this.save({ ...this.record!, confirmed: true });
    if (!entry && record.confirmed)
      return this.forget('This network was deleted, or this device was removed from it, on the Meshwork site.');
    if (record.role === 'host') {
      // A host from before the api recorded certificates (or one whose certificate changed) registers its own.
      const named = document.hosts?.find((h) => h.id === record.network.id)?.certificate_sha256;
      if (entry && named !== this.identity.fingerprint && !this.registered.has(record.network.id))
        void this.registerHost(record.network.id)
          .then(() => this.host.refreshEntitlements())
          .catch((error: Error) => this.log(`host certificate: ${error.message}`));
      await this.startServing();
      if (entry && entry.max_clients !== null && record.members.length > entry.max_clients) {
        const newestFirst = [...record.members].sort((a, b) => b.joined_at.localeCompare(a.joined_at));
        const over = newestFirst.slice(0, record.members.length - entry.max_clients).map((m) => m.device_id);
        await this.dropMembers(over, `Your plan now allows ${entry.max_clients} clients per network: this device was disconnected.`);
      }
      // A new document alone changes no plan (answers under way would replay for nothing): the
      // devices it drops are planned without, and a network it stops is no longer served.
      this.warm();
      const port = (this.server?.address() as AddressInfo | null)?.port;
      this.discovery.announce(
        entry?.status === 'active' && port
          ? {
              owner: ownerTag(document.user_id),
              network: {
                id: record.network.id,
                name: record.network.name,
                model: record.network.model,
                host_name: this.host.signedInDevice?.deviceName ?? 'Meshwork host',
              },
              port,
            }
          : null,
      );
    } else if (!this.hostLink) {
      void this.connectToHost();
    }
    this.notify();
  }

  private async save(record: NetworkRecord): Promise<void> {
    this.record = record;
    if (record.host) this.discovery.trust(record.network.id, record.host.certificate_sha256);
    await this.file.write(record);
  }

  private async forget(message: string | null): Promise<void> {
    const record = this.record;
    this.log(`left ${record?.network.name ?? 'no network'}${message ? `: ${message}` : ''}`);
    this.record = null;
    if (record) this.discovery.trust(record.network.id, null);
    await this.file.remove();
    if (record?.role === 'host') {
      for (const member of this.live.values()) if (message) member.link.send({ type: 'removed', message });
      await this.stopServing();
    }
    this.hostLink?.send({ type: 'leave' });
    this.hostLink?.close();
    this.hostLink = null;
    this.joinCode = null;
    this.planned = new Map();
    this.pipeline = null;
    await this.worker?.close();
    this.worker = null;
    this.clientView = { members: [], message: record?.role === 'client' ? message : null };
    this.notify();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.reconnect) clearTimeout(this.reconnect);
    this.discovery.close();
    this.hostLink?.close();
    await this.stopServing();
    await this.worker?.close();
  }
}

/** This device may not run the model now (its own plan): the host plans without it. */
class RunRefused extends Error {}

/** Blocks on another device, reached over its link. */
class RemoteStage implements Stage {
  constructor(
    readonly deviceId: string,
    readonly first: number,
    readonly end: number,
    private readonly link: HostLink,
    private readonly hidden: number,
    private readonly vocabulary: number,
    private readonly blockCount: number,
  ) {}

  async forward(seq: number, position: number, input: BigInt64Array | Float32Array, tokens: number): Promise<Float32Array> {
    const reply = await this.link.request(
      { type: 'forward', id: 0, seq, position, tokens, first_block: this.first, end_block: this.end },
      input,
      10_000 + 100 * tokens,
    );
    const error = reply.header.type === 'reply' ? reply.header.error : null;
    if (error?.kind === 'cache_missing') throw new CacheMissing(error.message);
    if (error) throw new PeerLost(error.message);
    // The last block answers the last position's logits; the others the residual stream.
    const expected = this.end === this.blockCount ? this.vocabulary * 4 : tokens * this.hidden * 4;
    if (reply.payload.length !== expected) throw new PeerLost('The device answered with the wrong size.');
    return asFloat32(reply.payload);
  }

  release(seq: number): void {
    this.link.send({ type: 'release', seq });
  }
}

function parseAddress(address: string): { address: string; port: number } {
  const at = address.lastIndexOf(':');
  return { address: address.slice(0, at).replace(/^\[|\]$/g, ''), port: Number(address.slice(at + 1)) || LAN_NETWORK_PORT };
}
