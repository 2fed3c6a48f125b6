import type { ChatCompletionMessage } from '@meshwork/contracts';
import type { Generation } from '../../engine/generate';
import type { Host } from '../host';
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

interface Loaded {
  name: string;
  version: string;
  engine: Promise<ChatEngine>;
  /** Aborts every answer of this model: the plan stopped allowing it. */
  withdrawn: AbortController;
  /** The answer being generated: its sessions are released only after it stops. */
  busy: Promise<unknown> | null;
}

/**
 * Serves the models this device may run: installed and allowed by a document that has not
 * passed its grace. One model is loaded at a time and answers one request at a time, clients
 * taking turns. When the plan stops allowing the loaded model its answers stop at once.
 */
export class ModelServer {
  readonly queue = new FairQueue();
  private loaded: Loaded | null = null;

  constructor(
    private readonly host: Host,
    private readonly options: { threads?: number } = {},
  ) {
    host.on('entitlements', () => void this.enforce());
    host.on('state', () => void this.enforce());
  }

  /** The models a client may ask for now. */
  available(): { name: string; version: string }[] {
    const state = this.host.state();
    if (!state.serving.allowed) return [];
    return state.models.filter((m) => m.allowed && m.status === 'installed').map(({ name, version }) => ({ name, version }));
  }

  async chat(
    client: string,
    request: { model: string; messages: ChatCompletionMessage[]; sampling: ChatSampling },
    onText: (text: string) => void,
    signal: AbortSignal,
  ): Promise<Generation> {
    this.refuseUnlessServing(request.model);
    return this.queue.run(
      client,
      async () => {
        this.refuseUnlessServing(request.model);
        const loaded = await this.load(request.model);
        const engine = await loaded.engine;
        const prompt = engine.prompt(request.messages);
        const answering = engine.complete(prompt, request.sampling, onText, AbortSignal.any([signal, loaded.withdrawn.signal]));
        loaded.busy = answering.catch(() => undefined);
        const generation = await answering.finally(() => (loaded.busy = null));
        if (loaded.withdrawn.signal.aborted) throw loaded.withdrawn.signal.reason as Error;
        return generation;
      },
      signal,
    );
  }

  async close(): Promise<void> {
    await this.unload(new ServeRefusal(503, 'The host is shutting down.', 'service_unavailable'));
  }

  private refuseUnlessServing(name: string): void {
    const state = this.host.state();
    if (!state.serving.allowed) throw new ServeRefusal(503, state.serving.reason ?? 'Models are not served now.', 'service_unavailable');
    if (!this.available().some((m) => m.name === name))
      throw new ServeRefusal(404, `The model "${name}" does not exist on this host or your plan does not include it.`, 'model_not_found');
  }

  private async load(name: string): Promise<Loaded> {
    const version = this.available().find((m) => m.name === name)!.version;
    if (this.loaded?.name === name && this.loaded.version === version) return this.loaded;
    await this.unload(null);
    const directory = this.host.models.pathOf(name)!;
    const engine = ChatEngine.load(directory, { threads: this.options.threads });
    this.loaded = { name, version, engine, withdrawn: new AbortController(), busy: null };
    engine.catch(() => (this.loaded = null));
    return this.loaded;
  }

  private async unload(reason: ServeRefusal | null): Promise<void> {
    const loaded = this.loaded;
    if (!loaded) return;
    this.loaded = null;
    if (reason) loaded.withdrawn.abort(reason);
    await loaded.busy;
    await (await loaded.engine.catch(() => null))?.release();
  }

  /** Stops the loaded model the moment it may no longer be served. */
  private async enforce(): Promise<void> {
    const loaded = this.loaded;
    if (!loaded || this.available().some((m) => m.name === loaded.name && m.version === loaded.version)) return;
    const reason = this.host.state().serving.reason;
    await this.unload(
      new ServeRefusal(reason ? 503 : 403, reason ?? `Your plan no longer includes the model "${loaded.name}".`, 'model_withdrawn'),
    );
  }
}
