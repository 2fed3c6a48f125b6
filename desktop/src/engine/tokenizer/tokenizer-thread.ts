/**
 * A worker thread holding a copy of one tokenizer, so that tokenising a long prompt takes none
 * of the event loop the host's other requests, its window and its network heartbeats need. It
 * keeps the process alive only while it has work; a thread that dies fails what it held, and
 * the next text starts a new one.
 */
import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { TokenizerJson } from '@meshwork/contracts';

export interface TokenizeRequest {
  id: number;
  text: string;
  special: boolean;
}
export type TokenizeReply = { id: number; ids: Int32Array } | { id: number; error: string };

// Built, the worker is JavaScript next to this file; in the tests it is TypeScript, compiled as it loads.
const WORKER = join(__dirname, `tokenizer-worker${extname(__filename)}`);
const EXEC_ARGV = WORKER.endsWith('.ts') ? ['--require', require.resolve('@swc-node/register')] : [];

export class TokenizerThread {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, { resolve: (ids: number[]) => void; reject: (error: Error) => void }>();
  private nextId = 0;

  constructor(private readonly json: TokenizerJson) {}

  encode(text: string, special: boolean): Promise<number[]> {
    const worker = (this.worker ??= this.start());
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, text, special } satisfies TokenizeRequest);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private start(): Worker {
    const worker = new Worker(WORKER, { workerData: this.json, execArgv: EXEC_ARGV });
    worker.on('message', (reply: TokenizeReply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if ('error' in reply) waiting?.reject(new Error(reply.error));
      else waiting?.resolve(Array.from(reply.ids));
    });
    worker.on('error', (error) => this.fail(worker, error));
    worker.on('exit', (code) => this.fail(worker, new Error(`The tokenizer thread stopped (exit code ${code})`)));
    return worker;
  }

  private fail(worker: Worker, error: Error): void {
    if (this.worker === worker) this.worker = undefined;
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}
