/**
 * This device as its network's host: it listens on the LAN, announces the network while the
 * signed document lists it active, admits devices (host-admission.ts), keeps the members to the
 * plan's cap, and runs the model across them (host-planner.ts). It tells the facade of changes
 * through its callbacks.
 */
import { freemem } from 'node:os';
import type { Server } from 'node:tls';
import type { AddressInfo } from 'node:net';
import type {
  EntitledNetwork,
  EntitlementDocument,
  HostNetwork,
  HostNetworkMember,
  HostNetworkMessage,
  JoinCode,
  LanNodeReport,
} from '@meshwork/contracts';
import type { DesktopRuntime } from '../host';
import { type Discovery, lanAddresses, ownerTag } from './discovery';
import { HostAdmission } from './host-admission';
import { HostPlanner, type LiveMember } from './host-planner';
import type { LanIdentity } from './lan-identity';
import { type HostLink, lanServer } from './lan-tls';
import { entitledEntry, type MemberRecord, type NetworkRecordStore } from './network-record';
import { measureSpeed, measuredSpeed } from './node-report';
import type { Pipeline } from './pipeline';

export interface HostSetting {
  runtime: DesktopRuntime;
  identity: LanIdentity;
  store: NetworkRecordStore;
  discovery: Discovery;
  /** Where the network's TLS port listens, and the port (0: any free one). */
  address: string;
  port: number;
  threads: number | undefined;
}

export interface HostCallbacks {
  changed(): void;
  log(message: string): void;
}

export class HostRole {
  private server: Server | null = null;
  private readonly live = new Map<string, LiveMember>();
  private readonly admission: HostAdmission;
  private readonly planner: HostPlanner;

  constructor(
    private readonly setting: HostSetting,
    private readonly callbacks: HostCallbacks,
  ) {
    const { runtime, identity, store, threads } = setting;
    const log = (message: string) => callbacks.log(message);
    this.admission = new HostAdmission({
      runtime,
      identity,
      store,
      admitted: (record, link, node) => this.online(record, link, node),
      changed: () => callbacks.changed(),
      log,
    });
    this.planner = new HostPlanner({
      runtime,
      store,
      live: this.live,
      message: () => this.message(),
      threads,
      planned: () => {
        callbacks.changed();
        this.broadcastMembers();
      },
      log,
    });
  }

  issueJoinCode(code: JoinCode): void {
    this.admission.issue(code);
  }

  pipelineFor(model: string, version: string): Promise<Pipeline | null> {
    return this.planner.pipelineFor(model, version);
  }

  /** Why the network does not run the model now (null: it does). */
  message(): HostNetworkMessage | null {
    const { runtime, store } = this.setting;
    const record = store.current!;
    const entry = entitledEntry(runtime.entitlements, record);
    if (!entry) return { code: 'awaiting_confirmation' };
    if (entry.status === 'suspended') return { code: 'suspended' };
    const { reason } = runtime.serving();
    if (reason) return { code: 'not_serving', reason };
    if (runtime.models.pathOf(record.network.model) === null) return { code: 'model_missing', model: record.network.model };
    return null;
  }

  view(): Pick<HostNetwork, 'join_code' | 'addresses' | 'connected' | 'members' | 'message' | 'certificate_sha256'> {
    const port = this.port;
    return {
      join_code: this.admission.usableCode,
      addresses: port ? lanAddresses(this.setting.address).map((a) => `${a}:${port}`) : [],
      connected: true,
      members: this.members(),
      message: this.message(),
      certificate_sha256: this.setting.identity.fingerprint,
    };
  }

  private get port(): number | undefined {
    return (this.server?.address() as AddressInfo | null)?.port;
  }

  /** This device first, then the members it admitted, online or not. */
  private members(): HostNetworkMember[] {
    const signed = this.setting.runtime.signedInDevice;
    const self: HostNetworkMember = {
      device_id: signed?.deviceId ?? '',
      name: signed?.deviceName ?? '',
      role: 'host',
      online: true,
      blocks: this.planner.blocksOf('self'),
      free_memory_bytes: freemem(),
      speed: measuredSpeed(),
      joined_at: new Date(0).toISOString(),
      share: null,
    };
    const members = (this.setting.store.current?.members ?? []).map((m): HostNetworkMember => {
      const live = this.live.get(m.device_id);
      return {
        device_id: m.device_id,
        name: m.name,
        role: 'client',
        online: live !== undefined,
        blocks: this.planner.blocksOf(m.device_id),
        free_memory_bytes: live?.node.free_memory_bytes ?? 0,
        speed: live?.node.speed ?? 0,
        joined_at: m.joined_at,
        share: live?.node.share ?? null,
      };
    });
    return [self, ...members];
  }

  /**
   * Follows the signed document: serves, drops the clients above the cap (newest first), plans
   * without the devices it drops, and announces the network while it is active.
   */
  async enforce(document: EntitlementDocument, entry: EntitledNetwork | undefined): Promise<void> {
    const record = this.setting.store.current!;
    await this.listen();
    if (entry && entry.max_clients !== null && record.members.length > entry.max_clients) {
      const newestFirst = [...record.members].sort((a, b) => b.joined_at.localeCompare(a.joined_at));
      const over = newestFirst.slice(0, record.members.length - entry.max_clients).map((m) => m.device_id);
      await this.dropMembers(over, `Your plan now allows ${entry.max_clients} clients per network: this device was disconnected.`);
    }
    // A new document alone changes no plan (answers under way would replay for nothing): the
    // devices it drops are planned without, and a network it stops is no longer served.
    this.planner.warm();
    const port = this.port;
    this.setting.discovery.announce(
      entry?.status === 'active' && port
        ? {
            owner: ownerTag(document.user_id),
            network: { ...record.network, host_name: this.setting.runtime.signedInDevice?.deviceName ?? 'Meshwork host' },
            port,
          }
        : null,
    );
  }

  private async listen(): Promise<void> {
    if (this.server) return;
    const server = lanServer(this.setting.identity, (socket) => void this.admission.accepted(socket));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.setting.port, this.setting.address, resolve);
    });
    this.callbacks.log(`listening on ${this.setting.address}:${(server.address() as AddressInfo).port}`);
    await measureSpeed(); // shown among the members before the first plan
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
        this.planner.replan();
        this.callbacks.changed();
      } else if (header.type === 'leave') {
        void this.dropMembers([record.device_id], null);
      }
    });
    link.on('close', (reason) => {
      if (this.live.get(record.device_id) !== member) return;
      this.live.delete(record.device_id);
      this.callbacks.log(`${record.name} went offline: ${reason.message}`);
      this.planner.lost(record.device_id, reason.message);
      this.callbacks.changed();
      this.broadcastMembers();
    });
    // New work is planned with the device; answers under way replay into the new plan.
    this.planner.replan();
    this.callbacks.changed();
    this.broadcastMembers();
  }

  private broadcastMembers(): void {
    const members = this.members();
    for (const member of this.live.values()) member.link.send({ type: 'members', members });
  }

  /** Takes devices out of the network, telling them why (`message`, the host's words on the LAN) unless they left. */
  async dropMembers(deviceIds: string[], message: string | null): Promise<void> {
    const record = this.setting.store.current;
    if (record?.role !== 'host') return;
    await this.setting.store.save({ ...record, members: record.members.filter((m) => !deviceIds.includes(m.device_id)) });
    for (const id of deviceIds) {
      const live = this.live.get(id);
      if (!live) continue;
      if (message) live.link.send({ type: 'removed', message });
      setTimeout(() => live.link.close(), 200).unref();
    }
    this.planner.replan();
    this.callbacks.changed();
  }

  /** Stops hosting: tells the members why (`removed`, unless the app is only closing), stops listening and announcing. */
  async close(removed: string | null): Promise<void> {
    for (const member of this.live.values()) if (removed) member.link.send({ type: 'removed', message: removed });
    const server = this.server;
    this.server = null;
    this.setting.discovery.announce(null);
    for (const member of this.live.values()) member.link.close();
    this.live.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    await this.planner.close();
  }
}
