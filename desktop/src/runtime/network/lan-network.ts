/**
 * This device's network on the LAN (issue 14, section 4): the face the runtime, the model
 * server and the window's commands call. It keeps what the device remembers (network-record.ts),
 * makes the api calls (network-api.ts), follows the signed document, and hands the LAN to the
 * role the device plays: the **host** (host-role.ts: admission, plan, serving) or a **member**
 * (member-role.ts: connection, retry, the blocks it is given; member-join.ts: the join). The
 * roles tell it of changes through callbacks; the window reads codes, never sentences.
 */
import { EventEmitter } from 'node:events';
import { type EntitlementDocument, type HostNetwork, type HostState, LAN_DISCOVERY_PORT, type LanRemoval } from '@meshwork/contracts';
import { lanRemovalWords } from '../english';
import { type DesktopRuntime, HostRefusal } from '../host';
import { Discovery } from './discovery';
import { HostRole } from './host-role';
import { type LanIdentity, lanIdentity } from './lan-identity';
import { joinNetwork, type JoinRequest } from './member-join';
import { MemberRole } from './member-role';
import { NetworkApi } from './network-api';
import { entitledEntry, NetworkRecordStore } from './network-record';
import { nodeReport } from './node-report';
import type { Pipeline } from './pipeline';

export { JOIN_RUNS_PER_CODE } from './host-admission';

export interface LanConfig {
  dataDir: string;
  /** The address the network's TLS port and announcements use (every LAN interface by default). */
  address: string;
  port: number;
  discoveryPort?: number;
  threads?: number;
  log?: (message: string) => void;
}

export class LanNetwork extends EventEmitter<{ change: [] }> {
  private readonly store: NetworkRecordStore;
  private readonly discovery: Discovery;
  private readonly networks: NetworkApi;
  /** What this device does on the LAN for its network: null while it is in none. */
  private role: HostRole | MemberRole | null = null;
  /** Networks whose host this device registered its certificate for in this run (once each: no loop if it does not take). */
  private readonly registered = new Set<string>();
  private closed = false;
  private readonly changed: () => void;
  /** The network this device was last taken out of, and why (the window's notice). */
  private left: HostState['left_network'] = null;

  private constructor(
    private readonly runtime: DesktopRuntime,
    private readonly identity: LanIdentity,
    private readonly config: LanConfig,
  ) {
    super();
    this.discovery = new Discovery(config.discoveryPort ?? LAN_DISCOVERY_PORT, () => this.notify(), identity, config.address);
    // A pinned host certificate makes that host's announcements verified.
    this.store = new NetworkRecordStore(config.dataDir, (record, before) => {
      if (record?.host) this.discovery.trust(record.network.id, record.host.certificate_sha256);
      else if (!record && before) this.discovery.trust(before.network.id, null);
    });
    this.networks = new NetworkApi(() => runtime.signedInDevice);
    this.changed = runtime.attachNetwork(() => ({
      network: this.view(),
      discovered: this.discovery.listed(this.store.current?.network.id),
      left_network: this.store.current ? null : this.left,
    }));
    runtime.on('entitlements', (document) => void this.enforce(document));
  }

  static async open(runtime: DesktopRuntime, config: LanConfig): Promise<LanNetwork> {
    const identity = await lanIdentity(config.dataDir, runtime.signedInDevice?.deviceName ?? 'Meshwork host');
    const network = new LanNetwork(runtime, identity, config);
    await network.store.load();
    await network.enforce(runtime.entitlements);
    return network;
  }

  private log(message: string): void {
    this.config.log?.(`network: ${message}`);
  }

  private notify(): void {
    this.changed();
    this.emit('change');
  }

  /** The role the record names, made on first use (making one starts nothing). */
  private roleOf(role: 'host'): HostRole;
  private roleOf(role: 'client'): MemberRole;
  private roleOf(role: 'host' | 'client'): HostRole | MemberRole {
    if (role === 'host' && this.role instanceof HostRole) return this.role;
    if (role === 'client' && this.role instanceof MemberRole) return this.role;
    const callbacks = { changed: () => this.notify(), log: (message: string) => this.log(message) };
    const { runtime, identity, store, discovery, config } = this;
    const { address, port, threads, dataDir } = config;
    const setting = { runtime, identity, store, discovery, address, port, threads, dataDir };
    this.role =
      role === 'host'
        ? new HostRole(setting, callbacks)
        : new MemberRole(setting, { ...callbacks, removed: (reason) => void this.forget(reason) });
    return this.role;
  }

  // ---- What the window shows -------------------------------------------------------------

  private view(): HostNetwork | null {
    const record = this.store.current;
    if (!record) return null;
    const entry = entitledEntry(this.runtime.entitlements, record);
    const common = { ...record.network, role: record.role, status: entry?.status ?? 'active', max_clients: entry?.max_clients ?? null };
    return { ...common, ...(record.role === 'host' ? this.roleOf('host') : this.roleOf('client')).view() };
  }

  // ---- Commands from the window ------------------------------------------------------------

  private signedIn() {
    const signed = this.runtime.signedInDevice;
    if (!signed) throw new HostRefusal({ code: 'sign_in_first' });
    return signed;
  }

  /** Creates a network at the api for a model the plan allows, makes this device its host, and issues a join code. */
  async create(name: string, model: string): Promise<void> {
    this.signedIn();
    if (this.store.current) throw new HostRefusal({ code: 'already_in_network' });
    const network = await this.networks.create(name, model);
    this.registered.add(network.id);
    await this.networks.registerHost(network.id, this.identity.fingerprint);
    // The code first: the window shows the network and its code together.
    const code = await this.networks.newJoinCode(network.id);
    this.roleOf('host').issueJoinCode(code);
    await this.store.save({
      network: { id: network.id, name: network.name, model: network.model },
      role: 'host',
      members: [],
      host: null,
      confirmed: false,
    });
    await this.runtime.refreshEntitlements().catch((error: Error) => this.log(`entitlements: ${error.message}`));
    await this.enforce(this.runtime.entitlements);
  }

  async newJoinCode(): Promise<void> {
    this.signedIn();
    const record = this.store.current;
    if (record?.role !== 'host') throw new HostRefusal({ code: 'only_host_issues_codes' });
    this.roleOf('host').issueJoinCode(await this.networks.newJoinCode(record.network.id));
    this.notify();
  }

  /**
   * Joins a network on this LAN with its host's code: at the api when it can be reached, then
   * at the host itself, by the key exchange: the host proves it knows the code before this
   * device sends anything about itself.
   */
  async join(request: JoinRequest): Promise<void> {
    const { deviceId, deviceName } = this.signedIn();
    if (this.store.current) throw new HostRefusal({ code: 'already_in_network' });
    const token = this.runtime.entitlementToken;
    if (!token) throw new HostRefusal({ code: 'awaiting_plan' });
    const joinedAtApi = await joinNetwork(
      request,
      {
        discovery: this.discovery,
        identity: this.identity,
        networks: this.networks,
        device: { deviceId, deviceName },
        entitlements: token,
        node: () => nodeReport(this.runtime),
        log: (message) => this.log(message),
      },
      async ({ network, target, hostCertificate, link }) => {
        await this.store.save({
          network,
          role: 'client',
          members: [],
          host: { address: target.address, port: target.port, certificate_sha256: hostCertificate },
          confirmed: false,
        });
        this.roleOf('client').serve(link);
      },
    );
    if (joinedAtApi) await this.runtime.refreshEntitlements().catch((error: Error) => this.log(`entitlements: ${error.message}`));
  }

  /** A client leaves; the host stops hosting (the network stays on the account for another host). */
  async leave(): Promise<void> {
    const record = this.store.current;
    if (!record) return;
    const { id } = record.network;
    await (record.role === 'client' ? this.networks.leave(id) : this.networks.stopHosting(id)).catch((error: Error) =>
      this.log(`leave: ${error.message}`),
    );
    await this.forget(null, record.role === 'host' ? { code: 'host_stopped' } : null);
  }

  async removeMember(deviceId: string): Promise<void> {
    const record = this.store.current;
    if (record?.role !== 'host') throw new HostRefusal({ code: 'only_host_removes' });
    if (!record.members.some((m) => m.device_id === deviceId)) throw new HostRefusal({ code: 'not_a_member' });
    // The device hears it from the host first: its signed document, following the api, would only say the network ended.
    await this.roleOf('host').dropMembers([deviceId], { code: 'removed_by_host' });
    await this.networks.removeClient(record.network.id, deviceId).catch((error: Error) => this.log(`remove: ${error.message}`));
  }

  /** The pipeline that serves `model` across this network, when this device hosts a running network for it. */
  async pipelineFor(model: string, version: string): Promise<Pipeline | null> {
    return this.role instanceof HostRole ? this.role.pipelineFor(model, version) : null;
  }

  // ---- Following the signed document ----------------------------------------------------

  /**
   * Applies the plan as the signed document says, at once: a network that ended is forgotten,
   * a suspended one stops, clients above the cap are disconnected newest first.
   */
  private async enforce(document: EntitlementDocument | null): Promise<void> {
    this.discovery.listenFor(document?.user_id ?? null);
    this.discovery.vouch(document?.hosts ?? []);
    const record = this.store.current;
    if (!record) return this.notify();
    if (record.host) this.discovery.trust(record.network.id, record.host.certificate_sha256);
    if (!document) {
      if (!this.runtime.signedInDevice) await this.forget(null);
      return this.notify();
    }
    const entry = entitledEntry(document, record);
    if (entry && !record.confirmed) await this.store.save({ ...this.store.current!, confirmed: true });
    if (!entry && record.confirmed) return this.forget({ code: 'network_ended' });
    if (record.role === 'host') {
      // A host from before the api recorded certificates (or one whose certificate changed) registers its own.
      const named = document.hosts?.find((h) => h.id === record.network.id)?.certificate_sha256;
      if (entry && named !== this.identity.fingerprint && !this.registered.has(record.network.id)) {
        this.registered.add(record.network.id);
        void this.networks
          .registerHost(record.network.id, this.identity.fingerprint)
          .then(() => this.runtime.refreshEntitlements())
          .catch((error: Error) => this.log(`host certificate: ${error.message}`));
      }
      await this.roleOf('host').enforce(document, entry);
    } else {
      this.roleOf('client').connect();
    }
    this.notify();
  }

  /**
   * This device is in no network any more: `reason` why, when it did not choose it (the window
   * says so until it is in another network). A host stops, telling its members `told`.
   */
  private async forget(reason: LanRemoval | null, told: LanRemoval | null = reason): Promise<void> {
    const record = this.store.current;
    this.log(`left ${record?.network.name ?? 'no network'}${reason ? `: ${lanRemovalWords(reason)}` : ''}`);
    this.left = record && reason ? { name: record.network.name, reason } : null;
    await this.store.remove();
    const role = this.role;
    this.role = null;
    if (role instanceof HostRole) await role.close(told);
    else await role?.close(true);
    this.notify();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.discovery.close();
    const role = this.role;
    if (role instanceof HostRole) await role.close(null);
    else await role?.close(false);
  }
}
