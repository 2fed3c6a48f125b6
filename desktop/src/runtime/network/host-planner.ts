/**
 * The host's plan: which device runs which of the model's blocks (assign-blocks.ts), loaded on
 * each before the pipeline (pipeline.ts) sends them work. A device that fails is left out and
 * the model planned again without it.
 */
import { freeMemoryBytes } from '../platform/free-memory';
import type { HostNetworkMessage, LanNodeReport } from '@meshwork/contracts';
import { readManifest } from '../../engine/local-model';
import { servingWords } from '../english';
import type { DesktopRuntime } from '../host';
import { blockCosts, CannotAssign, planAssignment, stagesOf } from './assign-blocks';
import { CacheMissing } from '../../engine/errors';
import { BlockWorker } from './block-worker';
import type { HostLink } from './lan-tls';
import type { MemberRecord, NetworkRecordStore } from './network-record';
import { measureSpeed } from './node-report';
import { asFloat32, PeerLost } from './peer-link';
import { LocalStage, NetworkUnavailable, Pipeline, type Stage } from './pipeline';

/**
 * A member loads its blocks from disk, after fetching the files its share lacks (gigabytes at
 * the host's share rate): bounded only loosely, as the link's heartbeat fails a member that died.
 */
const LOAD_MS = 2 * 60 * 60_000;

/** A member connected to the host now. */
export interface LiveMember {
  record: MemberRecord;
  link: HostLink;
  node: LanNodeReport;
  /** Why the host leaves it out of the plan (a failure, or it may not run the model now); cleared by its next report. */
  unusable: string | null;
}

export interface PlannerContext {
  runtime: DesktopRuntime;
  store: NetworkRecordStore;
  live: ReadonlyMap<string, LiveMember>;
  /** Why the network does not run the model now (null: it does). */
  message(): HostNetworkMessage | null;
  threads: number | undefined;
  /** A new plan: the window and the members show who holds which blocks. */
  planned(): void;
  /** A device ('self': this one) ran `tokens` positions through its blocks in an answer. */
  ran(deviceId: string, tokens: number): void;
  log(message: string): void;
}

export class HostPlanner {
  private pipeline: { model: string; version: string; pipeline: Pipeline } | null = null;
  /** The blocks each device runs ('self': this one), sorted. */
  private assignment = new Map<string, number[]>();
  /** This device's own stage. */
  private worker: BlockWorker | null = null;
  /** The last plan found too little memory among the devices online (cleared by a plan that works). */
  private short: Extract<HostNetworkMessage, { code: 'memory_short' }> | null = null;
  private blocks: number | null = null;

  constructor(private readonly context: PlannerContext) {}

  blocksOf(deviceId: string): number[] {
    return this.assignment.get(deviceId) ?? [];
  }

  /** This device's own blocks (its memory is reported beside them). */
  get ownWorker(): BlockWorker | null {
    return this.worker;
  }

  /** The model's block count, once this device has read its package. */
  get blockCount(): number | null {
    return this.blocks;
  }

  /** How much more memory the network needs, when the last plan found the devices too small for the model. */
  get memoryShort(): HostNetworkMessage | null {
    return this.short;
  }

  /** The pipeline that serves `model` across this network, when this device hosts a running network for it. */
  async pipelineFor(model: string, version: string): Promise<Pipeline | null> {
    const { store, runtime } = this.context;
    const record = store.current;
    if (record?.role !== 'host' || record.network.model !== model || this.context.message() !== null) return null;
    if (this.pipeline?.model !== model || this.pipeline.version !== version) {
      const directory = runtime.models.pathOf(model)!;
      const manifest = await readManifest(directory);
      this.blocks = manifest.blocks.length;
      this.pipeline = {
        model,
        version,
        pipeline: new Pipeline(
          manifest.contextLength,
          () => this.plan(directory, model, version),
          (deviceId, reason) => this.markUnusable(deviceId, reason),
          (deviceId, tokens) => this.context.ran(deviceId, tokens),
        ),
      };
    }
    return this.pipeline.pipeline;
  }

  /** The devices changed: new work is planned with them; answers under way replay into the new plan. */
  replan(): void {
    this.pipeline?.pipeline.invalidate();
    this.warm();
  }

  /** A device went offline: what it ran is lost, and it holds no blocks now. */
  lost(deviceId: string, reason: string): void {
    this.pipeline?.pipeline.lost(deviceId, reason);
    this.assignment.delete(deviceId);
    this.warm();
  }

  /**
   * Plans the model across the devices now (loading their blocks), rather than at the next
   * request: the first answer is not slowed, and the window shows who holds which blocks.
   */
  warm(): void {
    const record = this.context.store.current;
    if (record?.role !== 'host') return;
    const installed = this.context.runtime
      .state()
      .models.find((m) => m.name === record.network.model && m.allowed && m.status === 'installed');
    if (!installed) return;
    void this.pipelineFor(installed.name, installed.version)
      .then((pipeline) => pipeline?.current())
      .catch((error: Error) => this.context.log(`plan: ${error.message}`));
  }

  private markUnusable(deviceId: string, reason: string): void {
    this.context.log(`device ${deviceId} left the plan: ${reason}`);
    const live = this.context.live.get(deviceId);
    if (live) live.unusable = reason;
  }

  /** Assigns the blocks to the devices that can run them now and loads them there. */
  private async plan(directory: string, model: string, version: string): Promise<Stage[]> {
    const message = this.context.message();
    if (message) throw new NetworkUnavailable(apiWording(message));
    const manifest = await readManifest(directory);
    const costs = blockCosts(manifest.blocks);
    for (;;) {
      const candidates = [...this.context.live.values()].filter(
        // A member that may run the model takes its share whether or not it has the package: it fetches what it lacks.
        (m) =>
          m.unusable === null &&
          !m.link.isClosed &&
          [...m.node.models, ...m.node.entitled].some((x) => x.name === model && x.version === version),
      );
      const devices = [
        { id: 'self', freeMemoryBytes: freeMemoryBytes() + BlockWorker.heldMemoryBytes, speed: await measureSpeed() },
        ...candidates.map((m) => ({ id: m.record.device_id, freeMemoryBytes: m.node.free_memory_bytes, speed: m.node.speed })),
      ];
      let assignment: Map<string, number[]>;
      try {
        assignment = planAssignment(
          manifest.blocks.map((b) => ({ index: b.index, cost: costs[b.index]!, memoryBytes: b.memoryBytes })),
          devices,
        );
      } catch (error) {
        if (!(error instanceof CannotAssign)) throw error;
        this.short = { code: 'memory_short', model, needed_bytes: Math.round(error.neededBytes ?? 0) };
        this.context.planned();
        throw new NetworkUnavailable(apiWording(this.short));
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
        if (own.length > 0) this.worker = await BlockWorker.load(directory, model, version, own, this.context.threads);
      }
      this.assignment = new Map([...assignment].map(([id, blocks]) => [id, [...blocks].sort((a, b) => a - b)]));
      this.short = null;
      this.context.planned();
      this.context.log(`plan: ${[...assignment].map(([id, blocks]) => `${id}=${blocks.join(',')}`).join(' ')}`);
      return stagesOf(assignment).map(({ deviceId, first, end }): Stage => {
        if (deviceId === 'self') return new LocalStage(deviceId, first, end, this.worker!);
        const link = this.context.live.get(deviceId)!.link;
        return new RemoteStage(deviceId, first, end, link, manifest.hidden, manifest.vocabSize, manifest.blocks.length);
      });
    }
  }

  async close(): Promise<void> {
    this.pipeline = null;
    this.assignment = new Map();
    await this.worker?.close();
    this.worker = null;
  }
}

/**
 * The OpenAI api's words for a network that stopped between a request and its plan: programs
 * read them in English. The window words the same codes itself, in the person's language.
 */
function apiWording(message: HostNetworkMessage): string {
  switch (message.code) {
    case 'awaiting_confirmation':
      return 'Waiting for Meshwork to confirm this network.';
    case 'suspended':
      return 'This network is suspended: your plan allows fewer networks, or no longer includes its model.';
    case 'not_serving':
      return servingWords(message.reason);
    case 'model_missing':
      return `Download ${message.model} on this device to run the network.`;
    case 'memory_short':
      return `The devices of this network cannot hold ${message.model} together: they need ${Math.ceil(message.needed_bytes / 1e6)} MB more free memory (another device, or memory freed on these).`;
    default:
      return 'This network cannot run the model now.';
  }
}

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
    if (error) throw new PeerLost({ code: 'device_error', detail: error.message });
    // The last block answers the last position's logits; the others the residual stream.
    const expected = this.end === this.blockCount ? this.vocabulary * 4 : tokens * this.hidden * 4;
    if (reply.payload.length !== expected) throw new PeerLost({ code: 'wrong_size' });
    return asFloat32(reply.payload);
  }

  release(seq: number): void {
    this.link.send({ type: 'release', seq });
  }
}
