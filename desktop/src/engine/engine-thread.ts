/**
 * A worker thread running some blocks of one model package (a `BlockSet`). onnxruntime-node
 * creates and runs a session synchronously: on the main thread, loading a block of gigabytes or
 * a long prompt's prefill held the event loop for seconds, so the host's window, its OpenAI
 * api, its entitlement stream and its network heartbeats all stopped meanwhile (a member
 * running a long prefill looked dead to its host). Here they keep going. One thread per loaded
 * set; it keeps the process alive only while it has work, and fails what it held if it dies.
 */
import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ModelPackageManifest } from '@meshwork/contracts';
import type { BlockSetOptions, ForwardArgs } from './block-set';
import { CacheMissing, ContextLengthError } from './errors';

export interface EngineStart {
  directory: string;
  manifest: ModelPackageManifest;
  blocks: number[];
  options: BlockSetOptions;
}

export type EngineRequest =
  | {
      id: number;
      kind: 'forward';
      seq: number;
      position: number;
      first: number;
      end: number;
      input: BigInt64Array | Float32Array;
      tokens: number;
    }
  | { id: number; kind: 'release'; seq: number }
  | { id: number; kind: 'end_profiling' }
  | { id: number; kind: 'close' };

/** An error as it crosses the thread: the kinds callers tell apart, and the message. */
export type EngineFailure =
  | { kind: 'cache_missing'; message: string }
  | { kind: 'context_length'; requested: number; contextLength: number }
  | { kind: 'failed'; message: string };

/** Every reply carries each kept conversation's cache size after the request (for the memory a device reports). */
export type EngineReply =
  { id: number; output?: Float32Array; caches: [number, number][] } | { id: number; failure: EngineFailure; caches?: [number, number][] };

/** The thread's first message (id −2): it runs, before any block loads; then loaded (id −1), or why not. */
export const STARTED = -2;
export const LOADED = -1;

// Built, the worker is JavaScript next to this file; in the tests it is TypeScript, compiled as it loads.
const WORKER = join(__dirname, `engine-worker${extname(__filename)}`);
const EXEC_ARGV = WORKER.endsWith('.ts') ? ['--require', require.resolve('@swc-node/register')] : [];

export function failureOf(error: unknown): EngineFailure {
  if (error instanceof CacheMissing) return { kind: 'cache_missing', message: error.message };
  if (error instanceof ContextLengthError)
    return { kind: 'context_length', requested: error.requested, contextLength: error.contextLength };
  return { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
}

function errorOf(failure: EngineFailure): Error {
  if (failure.kind === 'cache_missing') return new CacheMissing(failure.message);
  if (failure.kind === 'context_length') return new ContextLengthError(failure.requested, failure.contextLength);
  return new Error(failure.message);
}

export class EngineThread {
  private readonly pending = new Map<number, { resolve: (output: Float32Array | undefined) => void; reject: (error: Error) => void }>();
  private nextId = 0;
  private failure: Error | null = null;
  /** Each kept conversation's cache bytes, as of the last reply. */
  private caches = new Map<number, number>();

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: EngineReply) => this.settle(reply));
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => this.fail(new Error(`The engine thread stopped (exit code ${code})`)));
  }

  /**
   * Starts a thread and loads `blocks` of the package in it; rejects with the load's own error.
   * `started` hears when the thread runs, with onnxruntime, before any block loads.
   */
  static async load(start: EngineStart, started: () => void = () => undefined): Promise<EngineThread> {
    const worker = new Worker(WORKER, { workerData: start, execArgv: EXEC_ARGV });
    const thread = new EngineThread(worker);
    const loaded = thread.request(LOADED);
    loaded.catch(() => undefined); // a thread that dies before it starts fails both: the first await reports it
    try {
      await thread.request(STARTED);
      started();
      await loaded;
    } catch (error) {
      await worker.terminate();
      throw error;
    }
    return thread;
  }

  /** See `BlockSet.forward`; the input is copied to the thread, the output moved back. */
  async forward(...[seq, position, first, end, input, tokens]: ForwardArgs): Promise<Float32Array> {
    const id = this.nextId++;
    const output = this.request(id);
    this.worker.postMessage({ id, kind: 'forward', seq, position, first, end, input, tokens } satisfies EngineRequest);
    return (await output)!;
  }

  /** Drops conversation `seq`'s caches; counted as gone at once. */
  release(seq: number): void {
    this.caches.delete(seq);
    this.send('release', { seq }).catch(() => undefined); // a thread gone holds nothing
  }

  get cacheBytes(): number {
    let bytes = 0;
    for (const size of this.caches.values()) bytes += size;
    return bytes;
  }

  async endProfiling(): Promise<void> {
    await this.send('end_profiling', {});
  }

  /** Releases the sessions, then stops the thread. */
  async close(): Promise<void> {
    if (this.failure) return;
    try {
      await this.send('close', {});
    } finally {
      this.caches.clear();
      this.failure = new Error('The engine thread is closed');
      await this.worker.terminate();
    }
  }

  private send(kind: 'release' | 'end_profiling' | 'close', fields: { seq?: number }): Promise<Float32Array | undefined> {
    const id = this.nextId++;
    const done = this.request(id);
    this.worker.postMessage({ id, kind, ...fields } as EngineRequest);
    return done;
  }

  private request(id: number): Promise<Float32Array | undefined> {
    if (this.failure) return Promise.reject(this.failure);
    this.worker.ref();
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  private settle(reply: EngineReply): void {
    const waiting = this.pending.get(reply.id);
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker.unref();
    if (reply.caches) this.caches = new Map(reply.caches);
    if ('failure' in reply) waiting?.reject(errorOf(reply.failure));
    else waiting?.resolve(reply.output);
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}
