/**
 * This device as a member (client) of a network: it stays connected to its host (a hello over
 * the certificate it pinned at join, again with backoff whenever the link drops) and runs the
 * blocks the host gives it. It tells the facade of changes through its callbacks.
 */
import { basename } from 'node:path';
import {
  type HostNetwork,
  type HostNetworkMember,
  type HostNetworkMessage,
  type LanRemoval,
  type LanShareReport,
  LanToMember,
} from '@meshwork/contracts';
import { describeShare, type HostFiles, ShareStore } from '../models/share-store';
import { servingWords } from '../english';
import type { DesktopRuntime } from '../host';
import { CacheMissing } from '../../engine/errors';
import { BlockWorker } from './block-worker';
import { HISTORY_STEP_MS } from './device-activity';
import type { Discovery } from './discovery';
import type { LanIdentity } from './lan-identity';
import { dialHost, HANDSHAKE_MS, type MemberLink, peerCertificate } from './lan-tls';
import type { NetworkRecordStore } from './network-record';
import { memoryReport } from './memory-report';
import { nodeReport } from './node-report';
import { asFloat32, asInt64, failureOf, type Frame, PeerLink, PeerLost } from './peer-link';

const RECONNECT_MS = [500, 1000, 2000, 5000];
/** One chunk of a package file from the host: its rate bound shares it among members, so generous. */
const FETCH_MS = 60_000;
/** Transfer progress reaches the host (and its window) at most this often. */
const PROGRESS_REPORT_MS = 1000;

export interface MemberSetting {
  runtime: DesktopRuntime;
  identity: LanIdentity;
  store: NetworkRecordStore;
  discovery: Discovery;
  threads: number | undefined;
  /** The host's data directory: shares live under its models folder. */
  dataDir: string;
}

export interface MemberCallbacks {
  changed(): void;
  /** The host took this device out of the network (`reason`): the facade forgets the network. */
  removed(reason: LanRemoval): void;
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
  /** What the host last asked this device to hold, and from where it loaded it. */
  private held: { model: string; version: string; blocks: number[]; directory: string; installed: boolean } | null = null;
  /** The share of the network's model on this device's disk (null: none, or the model is installed whole). */
  private share: ShareStore | null = null;
  /** Loads one at a time: two would fetch into the same files. */
  private loading: Promise<void> = Promise.resolve();
  private readonly abort = new AbortController();
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

  view(): Pick<HostNetwork, 'join_code' | 'addresses' | 'connected' | 'members' | 'block_count' | 'message' | 'certificate_sha256'> {
    return {
      join_code: null,
      addresses: [],
      connected: this.hostLink !== null && !this.hostLink.isClosed,
      members: this.members,
      // Its own blocks' package says how many the model has; a device holding none does not know.
      block_count: this.worker?.manifest.blocks.length ?? null,
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
      const node = await nodeReport(this.runtime, await this.shareReport());
      link.send({ type: 'hello', device_id: signed.deviceId, entitlements: token, node });
      const answer = await link.next(HANDSHAKE_MS);
      if (answer.header.type === 'refused') {
        link.close();
        this.members = [];
        this.message = { code: 'host_refused', reason: answer.header.reason };
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
    const report = () => this.report(link);
    this.runtime.models.on('change', report);
    // While it holds a share, its memory once a history step: the host's picture of it over time.
    const reporting = setInterval(() => this.held && report(), HISTORY_STEP_MS).unref();
    link.serve((frame) => void this.hostAsked(link, frame));
    link.on('close', (reason) => {
      this.runtime.models.off('change', report);
      clearInterval(reporting);
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
        return this.callbacks.removed(header.reason);
      case 'release':
        return this.worker?.release(header.seq);
      case 'load': {
        const { model, version, blocks } = header;
        const load = this.loading.then(() => this.load(link, model, version, blocks));
        this.loading = load.catch(() => undefined);
        return this.reply(link, header.id, () => load);
      }
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

  /**
   * Holds blocks `blocks` of the model: from the package installed whole when this device has
   * it, else from its share, fetching what the share lacks (from the host, else the platform)
   * before the old blocks are let go; then the files of blocks no longer held are deleted.
   */
  private async load(link: MemberLink, model: string, version: string, blocks: number[]): Promise<void> {
    this.mayRun(model, version, false);
    if (this.worker?.holds(model, version, blocks)) return;
    const installed = this.installedPath(model, version);
    let directory = installed;
    if (!directory && blocks.length > 0) {
      const api = this.runtime.signedInDevice?.api;
      const entitled = this.runtime.entitlements?.models.find((m) => m.name === model && m.version === version);
      if (!api || !entitled) throw new RunRefused(`This device's plan does not include ${model} ${version}.`);
      if (this.share?.model !== model || this.share.version !== version) this.share = new ShareStore(this.setting.dataDir, model, version);
      // Held while it comes, so the reports show the transfer; what was held before if it fails.
      const before = this.held;
      this.held = { model, version, blocks, directory: this.share.directory, installed: false };
      let reported = 0;
      await this.share
        .ensure(blocks, {
          api,
          manifestSha256: entitled.manifest_sha256,
          host: hostFiles(link, model, version),
          signal: this.abort.signal,
          progress: () => {
            if (Date.now() - reported < PROGRESS_REPORT_MS) return;
            reported = Date.now();
            this.report(link);
          },
          log: (message) => this.callbacks.log(message),
        })
        .catch((error: Error) => {
          this.held = before;
          throw error;
        });
      directory = this.share.directory;
    }
    await this.worker?.close();
    this.worker = null;
    if (blocks.length > 0) this.worker = await BlockWorker.load(directory!, model, version, blocks, this.setting.threads);
    this.held = directory ? { model, version, blocks, directory, installed: installed !== null } : null;
    if (!installed && this.share?.model === model && this.share.version === version)
      await this.share.prune(blocks).catch((error: Error) => this.callbacks.log(`share: ${error.message}`));
    this.callbacks.changed();
    this.report(link);
  }

  /** The directory of the model installed whole at `version`, or null. */
  private installedPath(model: string, version: string): string | null {
    const installed = this.runtime.models.pathOf(model);
    return installed !== null && basename(installed) === version ? installed : null;
  }

  /** Tells the host what this device holds and can hold now (its window shows it). */
  private report(link: MemberLink): void {
    void this.shareReport()
      .then((share) => nodeReport(this.runtime, share))
      .then((node) => link.send({ type: 'status', node }))
      .catch((error: Error) => this.callbacks.log(`report: ${error.message}`));
  }

  /** What this device holds of the network's model, its files' sources, and a transfer under way. */
  private async shareReport(): Promise<LanShareReport | null> {
    const held = this.held;
    if (!held) return null;
    const share = this.share;
    const described = held.installed
      ? await describeShare(held.directory, held.blocks, () => 'installed')
      : // Before model.json arrives the share has nothing to describe yet.
        await share!.report(held.blocks).catch(() => ({ files: [], disk_bytes: 0 }));
    const transfer = held.installed ? null : (share?.transfer ?? null);
    return { model: held.model, version: held.version, ...described, transfer, memory: memoryReport(this.worker) };
  }

  /**
   * Refuses work for a model this device's own plan does not let it run now; `files`: unless
   * it holds the files (installed whole, or its share).
   */
  private mayRun(model: string, version: string, files = true): void {
    // Asked for every position a block runs: the checks, not the whole state.
    const { reason } = this.runtime.serving();
    if (reason) throw new RunRefused(servingWords(reason));
    const allowed = this.runtime.entitlements?.models.some((m) => m.name === model && m.version === version);
    const held = this.installedPath(model, version) !== null || (this.held?.model === model && this.held.version === version);
    if (!allowed || (files && !held))
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
    this.abort.abort();
    if (this.reconnect) clearTimeout(this.reconnect);
    if (leaving) this.hostLink?.send({ type: 'leave' });
    this.hostLink?.close();
    this.hostLink = null;
    await this.worker?.close();
    this.worker = null;
  }
}

/** The host's copy of the package, read over the member's link in `fetch` requests. */
function hostFiles(link: MemberLink, model: string, version: string): HostFiles {
  return {
    async read(file, offset, length) {
      const reply = await link.request({ type: 'fetch', id: 0, model, version, file, offset, length }, undefined, FETCH_MS);
      const error = reply.header.type === 'reply' ? reply.header.error : null;
      if (error) throw new Error(`the host answered ${error.kind}: ${error.message}`);
      return reply.payload;
    },
  };
}
