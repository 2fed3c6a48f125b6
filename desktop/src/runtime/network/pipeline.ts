/**
 * A model run across the devices of a network: stages in order, each a contiguous run of
 * blocks on one device, the residual stream flowing from one to the next over the devices'
 * links. A conversation (`PipelineSequence`) is a ForwardPass like a local model; each device
 * keeps the key/value cache of its own blocks for it. When a device is lost the pipeline is
 * planned again among those left and the conversation replays what it had seen into the new
 * stages, so the answer goes on; when those left cannot hold the model it fails, saying why.
 */
import { CacheMissing, ContextLengthError } from '../../engine/errors';
import type { ForwardPass } from '../../engine/generate';
import type { BlockWorker } from './block-worker';
import { PeerLost } from './peer-link';

export interface Stage {
  deviceId: string;
  /** Blocks [first, end). */
  first: number;
  end: number;
  forward(seq: number, position: number, input: BigInt64Array | Float32Array, tokens: number): Promise<Float32Array>;
  release(seq: number): void;
}

/** The blocks this device runs itself. */
export class LocalStage implements Stage {
  constructor(
    readonly deviceId: string,
    readonly first: number,
    readonly end: number,
    private readonly worker: BlockWorker,
  ) {}

  forward(seq: number, position: number, input: BigInt64Array | Float32Array, tokens: number): Promise<Float32Array> {
    return this.worker.forward(seq, position, this.first, this.end, input, tokens);
  }

  release(seq: number): void {
    this.worker.release(seq);
  }
}

/** A stage failed because of its device: the pipeline is planned again without it. */
export class StageLost extends Error {
  constructor(
    readonly deviceId: string,
    message: string,
  ) {
    super(message);
  }
}

/** The network cannot run the model now; the message says why, for the person. */
export class NetworkUnavailable extends Error {}

export interface Plan {
  epoch: number;
  stages: Stage[];
}

/**
 * The current plan, made on demand by `planner` (which loads the blocks on the devices) and
 * made again after `invalidate` (a device joined, left or failed). Plans are made one at a time.
 */
export class Pipeline {
  private plan: Plan | null = null;
  private planning: Promise<Plan> | null = null;
  private epoch = 0;
  /** Counts invalidations, so a plan made meanwhile is not kept. */
  private generation = 0;
  private sequences = 0;

  constructor(
    readonly contextLength: number,
    private readonly planner: (epoch: number) => Promise<Stage[]>,
    /** Told when a stage's device failed, so the planner leaves it out. */
    private readonly onLost: (deviceId: string, reason: string) => void,
    /** Told of each stage's work: its device ran `tokens` positions through its blocks. */
    readonly ran: (deviceId: string, tokens: number) => void = () => {},
  ) {}

  current(): Promise<Plan> {
    if (this.plan) return Promise.resolve(this.plan);
    this.planning ??= (async () => {
      try {
        // A plan made while the devices changed is made again.
        for (;;) {
          const generation = this.generation;
          const epoch = ++this.epoch;
          const stages = await this.planner(epoch);
          if (generation === this.generation) return (this.plan = { epoch, stages });
        }
      } finally {
        this.planning = null;
      }
    })();
    return this.planning;
  }

  /** The devices running blocks now: one conversation per device keeps every device busy. */
  get width(): number {
    return Math.max(1, new Set(this.plan?.stages.map((s) => s.deviceId)).size);
  }

  invalidate(): void {
    this.plan = null;
    this.generation++;
  }

  lost(deviceId: string, reason: string): void {
    this.onLost(deviceId, reason);
    if (this.plan?.stages.some((s) => s.deviceId === deviceId)) this.invalidate();
  }

  sequence(prefillChunk = 256): PipelineSequence {
    return new PipelineSequence(this, ++this.sequences, prefillChunk);
  }
}

export class PipelineSequence implements ForwardPass {
  private history: number[] = [];
  /** The plan whose stages hold this conversation's caches. */
  private epoch = -1;
  private stages: Stage[] = [];

  constructor(
    private readonly pipeline: Pipeline,
    readonly seq: number,
    private readonly prefillChunk: number,
  ) {}

  get contextLength(): number {
    return this.pipeline.contextLength;
  }

  get length(): number {
    return this.history.length;
  }

  async forward(ids: readonly number[]): Promise<Float32Array> {
    if (this.length + ids.length > this.contextLength) throw new ContextLengthError(this.length + ids.length, this.contextLength);
    // Each failure takes a device out of the plan, so this ends: with an answer, or a plan that cannot be made.
    for (;;) {
      const plan = await this.pipeline.current();
      const replay = plan.epoch !== this.epoch;
      const input = replay ? [...this.history, ...ids] : ids;
      const position = replay ? 0 : this.history.length;
      try {
        const logits = await this.run(plan.stages, input, position);
        this.epoch = plan.epoch;
        this.stages = plan.stages;
        this.history.push(...ids);
        return logits;
      } catch (error) {
        if (error instanceof StageLost) this.pipeline.lost(error.deviceId, error.message);
        else if (error instanceof CacheMissing) this.epoch = -1;
        else throw error;
      }
    }
  }

  truncate(length: number): void {
    // The devices forget the rest when the next forward names its position.
    this.history = this.history.slice(0, Math.max(0, length));
  }

  async release(): Promise<void> {
    for (const stage of this.stages) stage.release(this.seq);
  }

  private async run(stages: Stage[], ids: readonly number[], position: number): Promise<Float32Array> {
    let logits: Float32Array = new Float32Array();
    for (let start = 0; start < ids.length; start += this.prefillChunk) {
      const chunk = ids.slice(start, start + this.prefillChunk);
      let state: BigInt64Array | Float32Array = BigInt64Array.from(chunk, (id) => BigInt(id));
      for (const stage of stages) {
        try {
          state = await stage.forward(this.seq, position + start, state, chunk.length);
          this.pipeline.ran(stage.deviceId, chunk.length);
        } catch (error) {
          if (error instanceof PeerLost) throw new StageLost(stage.deviceId, error.message);
          throw error;
        }
      }
      logits = state as Float32Array;
    }
    return logits;
  }
}
