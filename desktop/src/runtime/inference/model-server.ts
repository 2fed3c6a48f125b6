import type { ChatCompletionMessage } from '@meshwork/contracts';
import type { Generation } from '../../engine/generate';
import type { ChatFormat } from '../../engine/tokenizer/chat-families';
import { LocalModel, readManifest } from '../../engine/local-model';
import { servingWords } from '../english';
import type { DesktopRuntime } from '../host';
import type { LanNetwork } from '../network/lan-network';
import type { Pipeline } from '../network/pipeline';
import { type ChatSampling, ChatEngine } from './chat-engine';
import { FairQueue } from './fair-queue';

/** Why a model is not served: an HTTP status, words for the person, and OpenAI's error code. */
export class ServeRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** What one answer cost: its tokens in and out, and how long it held the engine. */
export interface AnswerFigures {
  promptTokens: number;
  completionTokens: number;
  busyMs: number;
}

/** A model ready to answer: here, or across this device's network. */
interface Runner {
  /** The pipeline it runs on, when it runs across the network. */
  pipeline: Pipeline | null;
  /** Conversations that may run at once: one per device running blocks. */
  width(): number;
  /** A chat engine with a conversation of its own. */
  lane(): ChatEngine;
  release(): Promise<void>;
}

interface Loaded {
  name: string;
  version: string;
  runner: Promise<Runner>;
  /** Engines not answering now (each holds its conversation's cache for the next turn). */
  idle: ChatEngine[];
  /** Aborts every answer of this model: the plan stopped allowing it. */
  withdrawn: AbortController;
  /** The answers being generated: the model is released only after they stop. */
  busy: Set<Promise<unknown>>;
}

/**
 * Serves the models this device may run: installed and allowed by a document that has not
 * passed its grace. One model is loaded at a time, clients taking turns; alone it answers one
 * request at a time, across a network one per device running blocks (so every device is busy).
 * When the plan stops allowing the loaded model its answers stop at once.
 */
export class ModelServer {
  readonly queue = new FairQueue(8, () => this.width);
  private loaded: Loaded | null = null;
  private width = 1;
  private network: LanNetwork | null = null;

  constructor(
    private readonly host: DesktopRuntime,
    private readonly options: {
      threads?: number;
      /** Hears each answer's counts (never its text), for the usage this device reports. */
      onAnswered?: (model: string, figures: AnswerFigures) => void;
    } = {},
  ) {
    host.on('entitlements', () => void this.enforce());
    host.on('state', () => void this.enforce());
  }

  /** Runs the network's model across its devices when this device hosts it. */
  useNetwork(network: LanNetwork): void {
    this.network = network;
    network.on('change', () => void this.enforce());
  }

  /** The models a client may ask for now. */
  available(): { name: string; version: string }[] {
    const state = this.host.state();
    if (!state.serving.allowed) return [];
    return state.models.filter((m) => m.allowed && m.status === 'installed').map(({ name, version }) => ({ name, version }));
  }

  /**
   * A chat answer: the conversation rendered by the model's chat template. A model without one
   * (a base model) gets the plain text of the conversation; `onFormat` hears which rendering was
   * used ('plain' then) before any text, so the client can be told.
   */
  chat(
    client: string,
    request: { model: string; messages: ChatCompletionMessage[]; sampling: ChatSampling; onFormat?: (format: ChatFormat) => void },
    onText: (text: string) => void,
    signal: AbortSignal,
  ): Promise<Generation> {
    const prompt = (engine: ChatEngine) => {
      request.onFormat?.(engine.format);
      return engine.prompt(request.messages);
    };
    return this.answer(client, request.model, prompt, request.sampling, onText, signal);
  }

  /** A completion: the prompt continued as written, with no template (how a base model is asked). */
  complete(
    client: string,
    request: { model: string; prompt: string; sampling: ChatSampling },
    onText: (text: string) => void,
    signal: AbortSignal,
  ): Promise<Generation> {
    return this.answer(client, request.model, (engine) => engine.text(request.prompt), request.sampling, onText, signal);
  }

  private async answer(
    client: string,
    model: string,
    prompt: (engine: ChatEngine) => Promise<number[]>,
    sampling: ChatSampling,
    onText: (text: string) => void,
    signal: AbortSignal,
  ): Promise<Generation> {
    this.refuseUnlessServing(model);
    return this.queue.run(
      client,
      async () => {
        this.refuseUnlessServing(model);
        const loaded = await this.load(model);
        const runner = await loaded.runner;
        const engine = loaded.idle.pop() ?? runner.lane();
        const started = performance.now();
        // Tokenising is part of the answer: the model stays loaded meanwhile, and the lane comes back even when it fails.
        const answering = prompt(engine).then((ids) =>
          engine.complete(ids, sampling, onText, AbortSignal.any([signal, loaded.withdrawn.signal])),
        );
        const busy = answering.catch(() => undefined);
        loaded.busy.add(busy);
        try {
          const generation = await answering;
          if (loaded.withdrawn.signal.aborted) throw loaded.withdrawn.signal.reason as Error;
          this.options.onAnswered?.(model, {
            promptTokens: generation.promptTokens,
            completionTokens: generation.tokens.length,
            busyMs: Math.round(performance.now() - started),
          });
          return generation;
        } finally {
          loaded.busy.delete(busy);
          loaded.idle.push(engine);
          this.width = runner.width();
        }
      },
      signal,
    );
  }

  async close(): Promise<void> {
    await this.unload(new ServeRefusal(503, 'The host is shutting down.', 'service_unavailable'));
  }

  private refuseUnlessServing(name: string): void {
    const { reason } = this.host.state().serving;
    if (reason) throw new ServeRefusal(503, servingWords(reason), 'service_unavailable');
    if (!this.available().some((m) => m.name === name))
      throw new ServeRefusal(404, `The model "${name}" does not exist on this host or your plan does not include it.`, 'model_not_found');
  }

  private async load(name: string): Promise<Loaded> {
    const version = this.available().find((m) => m.name === name)!.version;
    const pipeline = (await this.network?.pipelineFor(name, version)) ?? null;
    const loaded = this.loaded;
    if (loaded?.name === name && loaded.version === version && (await loaded.runner.catch(() => null))?.pipeline === pipeline)
      return loaded;
    await this.unload(null);
    const directory = this.host.models.pathOf(name)!;
    const runner = pipeline ? networkRunner(directory, pipeline) : localRunner(directory, this.options.threads);
    this.loaded = { name, version, runner, idle: [], withdrawn: new AbortController(), busy: new Set() };
    runner.catch(() => (this.loaded = null));
    return this.loaded;
  }

  private async unload(reason: ServeRefusal | null): Promise<void> {
    const loaded = this.loaded;
    if (!loaded) return;
    this.loaded = null;
    this.width = 1;
    if (reason) loaded.withdrawn.abort(reason);
    await Promise.all(loaded.busy);
    await (await loaded.runner.catch(() => null))?.release();
  }

  /** Stops the loaded model the moment it may no longer be served, or no longer on the network it ran on. */
  private async enforce(): Promise<void> {
    const loaded = this.loaded;
    if (!loaded) return;
    if (this.available().some((m) => m.name === loaded.name && m.version === loaded.version)) {
      const runner = await loaded.runner.catch(() => null);
      if (runner?.pipeline && (await this.network?.pipelineFor(loaded.name, loaded.version)) !== runner.pipeline)
        await this.unload(new ServeRefusal(503, 'This device stopped hosting the network that ran the model.', 'service_unavailable'));
      return;
    }
    const { reason } = this.host.state().serving;
    await this.unload(
      reason
        ? new ServeRefusal(503, servingWords(reason), 'model_withdrawn')
        : new ServeRefusal(403, `Your plan no longer includes the model "${loaded.name}".`, 'model_withdrawn'),
    );
  }
}

/** The whole model in this process: one conversation at a time. */
async function localRunner(directory: string, threads: number | undefined): Promise<Runner> {
  const model = await LocalModel.load(directory, { threads });
  const tokenizer = await ChatEngine.tokenizer(directory);
  let lanes = 0;
  return {
    pipeline: null,
    width: () => 1,
    lane: () => {
      if (lanes++ > 0) throw new Error('A model run in this process answers one conversation at a time.');
      return new ChatEngine(model.manifest, model, tokenizer);
    },
    release: async () => {
      await model.release();
      await tokenizer.close();
    },
  };
}

/** The model across the network: a conversation per lane, each with its caches on the devices. */
async function networkRunner(directory: string, pipeline: Pipeline): Promise<Runner> {
  const manifest = await readManifest(directory);
  const tokenizer = await ChatEngine.tokenizer(directory);
  const sequences: ReturnType<Pipeline['sequence']>[] = [];
  return {
    pipeline,
    width: () => pipeline.width,
    lane: () => {
      const sequence = pipeline.sequence();
      sequences.push(sequence);
      return new ChatEngine(manifest, sequence, tokenizer);
    },
    release: async () => {
      await Promise.all(sequences.map((s) => s.release()));
      await tokenizer.close();
    },
  };
}
