/**
 * This device as a member (client) of a network: it stays connected to its host (a hello over
 * the certificate it pinned at join, again with backoff whenever the link drops) and runs the
 * blocks the host gives it. It tells the facade of changes through its callbacks.
 */
import { basename } from 'node:path';
import { type HostNetwork, type HostNetworkMember, type HostNetworkMessage, LanToMember } from '@meshwork/contracts';
import { servingWords } from '../english';
import type { DesktopRuntime } from '../host';
import { BlockWorker, CacheMissing } from './block-worker';
import type { Discovery } from './discovery';
import type { LanIdentity } from './lan-identity';
import { dialHost, HANDSHAKE_MS, type MemberLink, peerCertificate } from './lan-tls';
import type { NetworkRecordStore } from './network-record';
import { nodeReport } from './node-report';
import { asFloat32, asInt64, failureOf, type Frame, PeerLink, PeerLost } from './peer-link';

const RECONNECT_MS = [500, 1000, 2000, 5000];

export interface MemberSetting {
  runtime: DesktopRuntime;
  identity: LanIdentity;
  store: NetworkRecordStore;
  discovery: Discovery;
  threads: number | undefined;
}

export interface MemberCallbacks {
  changed(): void;
  /** The host removed this device from the network (its words): the facade forgets the network. */
  removed(message: string): void;
  log(message: string): void;
}

/** This device may not run the model now (its own plan): the host plans without it. */
class RunRefused extends Error {}

export class MemberRole {
  private hostLink: MemberLink | null = null;
  /** The devices of the network, as the host last reported them. */
  private members: HostNetworkMember[] = [];
  private message: HostNetworkMessage | null = null;
  private reconnect: NodeJS.Timeout | null = null;
  /** The blocks the host gave this device. */
  private worker: BlockWorker | null = null;
  private closed = false;

  private readonly runtime: DesktopRuntime;
  private readonly store: NetworkRecordStore;

  constructor(
    private readonly setting: MemberSetting,
    private readonly callbacks: MemberCallbacks,
  ) {
    this.runtime = setting.runtime;
    this.store = setting.store;
  }

  view(): Pick<HostNetwork, 'join_code' | 'addresses' | 'connected' | 'members' | 'message' | 'certificate_sha256'> {
    return {
      join_code: null,
      addresses: [],
      connected: this.hostLink !== null && !this.hostLink.isClosed,
      members: this.members,
      message: this.message,
      certificate_sha256: this.store.current?.host?.certificate_sha256 ?? null,
    };
  }

  /** Connects to the host unless connected (or trying). */
  connect(): void {
    if (!this.hostLink) void this.connectToHost();
  }

  /** Keeps the connection to the host: reconnects with backoff while this device is a client. */
  private async connectToHost(attempt = 0): Promise<void> {
    this.reconnect = null;
    const record = this.store.current;
    const token = this.runtime.entitlementToken;
    const signed = this.runtime.signedInDevice;
    if (this.closed || record?.role !== 'client' || !record.host || !token || !signed || this.hostLink) return;
    const announced = this.setting.discovery.find(record.network.id);
    const target = announced?.certificate_sha256 === record.host.certificate_sha256 ? announced : record.host;
    try {
      const socket = await dialHost(this.setting.identity, target.address, target.port);
      if (peerCertificate(socket) !== record.host.certificate_sha256) {
        socket.destroy();
        throw new PeerLost({ code: 'not_the_host' });
      }
      const link: MemberLink = new PeerLink(socket, LanToMember, null, { type: 'pong' });
      link.send({ type: 'hello', device_id: signed.deviceId, entitlements: token, node: await nodeReport(this.runtime) });
      const answer = await link.next(HANDSHAKE_MS);
      if (answer.header.type === 'refused') {
        link.close();
        this.members = [];
        this.message = { code: 'host_refused', message: answer.header.message };
        this.callbacks.changed();
        return this.retryLater(RECONNECT_MS.length - 1);
      }
      if (answer.header.type !== 'welcome') throw new PeerLost({ code: 'not_welcomed' });
      if (target !== record.host)
        await this.store.save({ ...record, host: { ...record.host, address: target.address, port: target.port } });
      this.callbacks.log('connected to the host');
      this.serve(link);
    } catch (error) {
      this.callbacks.log(`the host cannot be reached: ${(error as Error).message}`);
      this.message = { code: 'host_unreachable', error: failureOf(error) };
      this.callbacks.changed();
      this.retryLater(attempt + 1);
    }
  }

  private retryLater(attempt: number): void {
    if (this.closed || this.reconnect) return;
    const delay = RECONNECT_MS[Math.min(attempt, RECONNECT_MS.length - 1)]!;
    this.reconnect = setTimeout(() => void this.connectToHost(attempt), delay).unref();
  }

  /** Runs what the host asks of this device over `link` (the join's, or a hello's) until it closes. */
  serve(link: MemberLink): void {
    this.hostLink = link;
    this.message = null;
    this.callbacks.changed();
    const report = () => void nodeReport(this.runtime).then((node) => link.send({ type: 'status', node }));
    this.runtime.models.on('change', report);
    link.serve((frame) => void this.hostAsked(link, frame));
    link.on('close', (reason) => {
      this.runtime.models.off('change', report);
      if (this.hostLink !== link) return;
      this.hostLink = null;
      this.callbacks.log(`lost the host: ${reason.message}`);
      if (this.closed) return;
      this.members = this.members.map((m) => ({ ...m, online: false }));
      this.message = { code: 'host_offline', error: reason.failure };
      this.callbacks.changed();
      this.retryLater(0);
    });
  }

  private async hostAsked(link: MemberLink, { header, payload }: Frame<LanToMember>): Promise<void> {
    switch (header.type) {
      case 'members':
        this.members = header.members;
        return this.callbacks.changed();
      case 'removed':
        link.close();
        return this.callbacks.removed(header.message);
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
              this.runtime.models.pathOf(header.model)!,
              header.model,
              header.version,
              header.blocks,
              this.setting.threads,
            );
          this.callbacks.changed();
        });
      case 'forward':
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
      default:
        return;
    }
  }

  /** Refuses work for a model this device's own plan does not let it run now. */
  private mayRun(model: string, version: string): void {
    // Asked for every position a block runs: the checks, not the whole state.
    const { reason } = this.runtime.serving();
    if (reason) throw new RunRefused(servingWords(reason));
    const allowed = this.runtime.entitlements?.models.some((m) => m.name === model && m.version === version);
    const installed = this.runtime.models.pathOf(model);
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

  /** Stops: `leaving` tells the host this device leaves the network (not so when the app closes). */
  async close(leaving: boolean): Promise<void> {
    this.closed = true;
    if (this.reconnect) clearTimeout(this.reconnect);
    if (leaving) this.hostLink?.send({ type: 'leave' });
    this.hostLink?.close();
    this.hostLink = null;
    await this.worker?.close();
    this.worker = null;
  }
}
