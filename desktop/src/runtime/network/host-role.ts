/**
 * This device as its network's host: it listens on the LAN, announces the network while the
 * signed document lists it active, admits devices (host-admission.ts), keeps the members to the
 * plan's cap, and runs the model across them (host-planner.ts). It tells the facade of changes
 * through its callbacks.
 */
import { freeMemoryBytes } from '../platform/free-memory';
import { basename } from 'node:path';
import type { Server } from 'node:tls';
import type { AddressInfo } from 'node:net';
import {
  type EntitledNetwork,
  type EntitlementDocument,
  type HostNetwork,
  type HostNetworkMember,
  type HostNetworkMessage,
  type JoinCode,
  LAN_FETCH_MAX_BYTES,
  type LanNodeReport,
  type LanRemoval,
  type LanShareReport,
} from '@meshwork/contracts';
import type { DesktopRuntime } from '../host';
import { type Discovery, lanAddresses, ownerTag } from './discovery';
import { DeviceActivity, HISTORY_STEP_MS } from './device-activity';
import { HostAdmission } from './host-admission';
import { HostPlanner, type LiveMember } from './host-planner';
import type { LanIdentity } from './lan-identity';
import { type HostLink, lanServer } from './lan-tls';
import { entitledEntry, type MemberRecord, type NetworkRecordStore } from './network-record';
import { describeShare } from '../models/share-store';
import { memoryReport } from './memory-report';
import { measureSpeed, measuredSpeed } from './node-report';
import { ShareServer, shareRate, TokenBucket } from './share-server';
import type { Pipeline } from './pipeline';
import { BlockWorker } from './block-worker';

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
  private readonly shares: ShareServer;
  /** This device's own share (its held blocks' files, from its installed package), described after each plan. */
  private ownShare: Pick<LanShareReport, 'model' | 'version' | 'files' | 'disk_bytes'> | null = null;
  /** Each device's tokens a second through its blocks, now and over ten minutes ('self': this one), and its memory. */
  private readonly activity: DeviceActivity;
  /** Measures this device's own memory once a history step while it serves a share (members report theirs as often). */
  private readonly measuring: NodeJS.Timeout;

  constructor(
    private readonly setting: HostSetting,
    private readonly callbacks: HostCallbacks,
  ) {
    const { runtime, identity, store, threads } = setting;
    const log = (message: string) => callbacks.log(message);
    // Members' windows show every device's work too: they hear of it as the host's does.
    this.activity = new DeviceActivity(() => {
      callbacks.changed();
      this.broadcastMembers();
    });
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
      message: () => this.blocking(),
      threads,
      planned: () => {
        void this.describeOwnShare().finally(() => {
          callbacks.changed();
          this.broadcastMembers();
        });
      },
      ran: (deviceId, tokens) => this.activity.ran(deviceId, tokens),
      log,
    });
    let rate: number;
    try {
      rate = shareRate(process.env);
    } catch (error) {
      log(`${(error as Error).message}: sharing at ${shareRate({})} bytes a second`);
      rate = shareRate({});
    }
    const networkModel = () => (store.current?.role === 'host' ? store.current.network.model : null);
    this.shares = new ShareServer(runtime, networkModel, new TokenBucket(rate, LAN_FETCH_MAX_BYTES));
    this.measuring = setInterval(() => {
      if (!this.ownShare) return;
      this.activity.measured('self', process.memoryUsage.rss());
      callbacks.changed();
      this.broadcastMembers();
    }, HISTORY_STEP_MS).unref();
  }

  issueJoinCode(code: JoinCode): void {
    this.admission.issue(code);
  }

  pipelineFor(model: string, version: string): Promise<Pipeline | null> {
    return this.planner.pipelineFor(model, version);
  }

  /** Why the network does not run the model now (null: it does): a stop, or the last plan's want of memory. */
  message(): HostNetworkMessage | null {
    return this.blocking() ?? this.planner.memoryShort;
  }

  /** Why the network may not run the model now, before any plan is tried. */
  private blocking(): HostNetworkMessage | null {
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

  view(): Pick<HostNetwork, 'join_code' | 'addresses' | 'connected' | 'members' | 'block_count' | 'message' | 'certificate_sha256'> {
    const port = this.port;
    return {
      join_code: this.admission.usableCode,
      addresses: port ? lanAddresses(this.setting.address).map((a) => `${a}:${port}`) : [],
      connected: true,
      members: this.members(),
      block_count: this.planner.blockCount,
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
      free_memory_bytes: freeMemoryBytes() + BlockWorker.heldMemoryBytes,
      speed: measuredSpeed(),
      joined_at: new Date(0).toISOString(),
      share: this.ownShare && { ...this.ownShare, transfer: null, memory: memoryReport(this.planner.ownWorker) },
      activity: this.activity.of('self'),
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
        activity: this.activity.of(m.device_id),
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
      await this.dropMembers(over, { code: 'client_limit', max_clients: entry.max_clients });
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
    const measured = (report: LanNodeReport) => {
      if (report.share) this.activity.measured(record.device_id, report.share.memory.rss_bytes);
    };
    measured(node);
    let fetching = 0;
    link.serve(({ header }) => {
      if (header.type === 'status') {
        // A report of its share or its memory alone (a transfer's progress) changes no plan.
        const replan = member.unusable !== null || !samePlanning(member.node, header.node);
        member.node = header.node;
        measured(header.node);
        member.unusable = null;
        if (replan) this.planner.replan();
        this.callbacks.changed();
        if (!replan) this.broadcastMembers();
      } else if (header.type === 'fetch') {
        // A member asks a couple of chunks at a time; more is a member holding the host's memory.
        if (fetching >= MAX_FETCHES_PER_MEMBER)
          return link.send({ type: 'reply', id: header.id, error: { kind: 'failed', message: 'Too many requests at once.' } });
        fetching++;
        void this.shares
          .answer(header)
          .then(({ error, payload }) => link.send({ type: 'reply', id: header.id, error }, payload))
          .finally(() => fetching--);
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

  /** Describes the files of this device's own blocks, from its installed package. */
  private async describeOwnShare(): Promise<void> {
    const model = this.setting.store.current?.network.model;
    const directory = model ? this.setting.runtime.models.pathOf(model) : null;
    const blocks = this.planner.blocksOf('self');
    if (!model || !directory || blocks.length === 0) return void (this.ownShare = null);
    const files = await describeShare(directory, blocks, () => 'installed').catch(() => null);
    this.ownShare = files && { model, version: basename(directory), ...files };
  }

  private broadcastMembers(): void {
    const members = this.members();
    for (const member of this.live.values()) member.link.send({ type: 'members', members });
  }

  /** Takes devices out of the network, telling them why (`reason`) unless they left. */
  async dropMembers(deviceIds: string[], reason: LanRemoval | null): Promise<void> {
    const record = this.setting.store.current;
    if (record?.role !== 'host') return;
    await this.setting.store.save({ ...record, members: record.members.filter((m) => !deviceIds.includes(m.device_id)) });
    for (const id of deviceIds) {
      this.activity.forget(id);
      const live = this.live.get(id);
      if (!live) continue;
      if (reason) live.link.send({ type: 'removed', reason });
      setTimeout(() => live.link.close(), 200).unref();
    }
    this.planner.replan();
    this.callbacks.changed();
  }

  /** Stops hosting: tells the members why (`removed`, unless the app is only closing), stops listening and announcing. */
  async close(removed: LanRemoval | null): Promise<void> {
    for (const member of this.live.values()) if (removed) member.link.send({ type: 'removed', reason: removed });
    const server = this.server;
    this.server = null;
    this.setting.discovery.announce(null);
    for (const member of this.live.values()) member.link.close();
    this.live.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    clearInterval(this.measuring);
    this.activity.close();
    await this.planner.close();
  }
}

/** `fetch` requests one member may have waiting on the host. */
const MAX_FETCHES_PER_MEMBER = 4;

/** Whether two reports of a device plan the same: its share and free memory moving (a transfer under way) change nothing planned. */
function samePlanning(before: LanNodeReport, after: LanNodeReport): boolean {
  const planning = (node: LanNodeReport) => JSON.stringify([node.speed, node.models, node.entitled]);
  return planning(before) === planning(after);
}
