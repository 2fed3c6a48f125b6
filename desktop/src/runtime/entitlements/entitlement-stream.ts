import {
  ENTITLEMENT_STREAM_EVENTS,
  ENTITLEMENT_STREAM_HEARTBEAT_SECONDS,
  ENTITLEMENT_STREAM_RETRY_MS,
  type HostConnection,
  SignedEntitlements,
} from '@meshwork/contracts';
import type { ApiClient } from '../api/api-client';
import { SseParser } from './sse-parser';

export interface EntitlementStreamHandlers {
  connection(state: HostConnection): void;
  /** A signed document arrived (still to be verified). */
  document(token: string): Promise<void>;
  /** The device was revoked, or its session refused: sign out. */
  /** The session is gone (`no_longer_signed_in`), or the owner signed the device out (`device_signed_out`). */
  signedOut(code: 'no_longer_signed_in' | 'device_signed_out'): void;
  /** The seq of the document held, sent as Last-Event-ID so a reconnect skips what the host has. */
  lastSeq(): number | null;
  log(message: string): void;
}

/** Two heartbeats missed: the api or the path to it is gone even if no socket said so. */
const IDLE_LIMIT_MS = 2 * ENTITLEMENT_STREAM_HEARTBEAT_SECONDS * 1000 + 5_000;
const MAX_BACKOFF_MS = 60_000;

/**
 * Holds GET /devices/entitlements/stream open for as long as the host runs: reconnects with
 * exponential backoff and jitter from the server's `retry`, sends Last-Event-ID, and treats a
 * stream that goes quiet for two heartbeats as dropped.
 */
export class EntitlementStream {
  private stopped = false;
  private abort: AbortController | null = null;
  private wake: (() => void) | null = null;
  private readonly done: Promise<void>;

  constructor(
    private readonly api: ApiClient,
    private readonly handlers: EntitlementStreamHandlers,
    private readonly idleLimitMs = IDLE_LIMIT_MS,
  ) {
    this.done = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.abort?.abort();
    this.wake?.();
    await this.done;
  }

  /** Reconnect now instead of waiting out the backoff (the person pressed Retry, or the network came back). */
  retryNow(): void {
    this.wake?.();
  }

  private async run(): Promise<void> {
    let retryMs = ENTITLEMENT_STREAM_RETRY_MS;
    let failures = 0;
    let renewing = false;
    while (!this.stopped) {
      if (!renewing) this.handlers.connection('connecting');
      const started = Date.now();
      const result = await this.hold((ms) => (retryMs = ms)).catch((error: Error) => {
        this.handlers.log(`entitlement stream: ${error.message}`);
        return 'dropped' as const;
      });
      if (result === 'ended' || this.stopped) break;
      // The token expired: again at once, still online (the request refreshes the token). Not
      // for a stream that expired as soon as it opened, so no server can make this a busy loop.
      renewing = result === 'expired' && Date.now() - started >= retryMs;
      if (renewing) continue;
      if (result === 'was-online' || result === 'expired') failures = 0;
      this.handlers.connection('offline');
      const backoff = Math.min(MAX_BACKOFF_MS, retryMs * 2 ** failures) * (0.5 + Math.random() / 2);
      failures += 1;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, backoff);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
  }

  /**
   * One connection: 'ended' when the device is signed out, 'expired' when the server closed it
   * as its access token expired, else how it dropped.
   */
  private async hold(setRetry: (ms: number) => void): Promise<'ended' | 'expired' | 'was-online' | 'dropped'> {
    const abort = new AbortController();
    this.abort = abort;
    const seq = this.handlers.lastSeq();
    const connecting = setTimeout(() => abort.abort(), this.idleLimitMs);
    const response = await this.api
      .open('/devices/entitlements/stream', {
        headers: { Accept: 'text/event-stream', ...(seq === null ? {} : { 'Last-Event-ID': String(seq) }) },
        signal: abort.signal,
      })
      .finally(() => clearTimeout(connecting));
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel();
      this.handlers.signedOut('no_longer_signed_in');
      return 'ended';
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      throw new Error(`the api answered HTTP ${response.status}`);
    }
    this.handlers.connection('online');
    let idle = setTimeout(() => abort.abort(), this.idleLimitMs);
    const parser = new SseParser();
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        clearTimeout(idle);
        idle = setTimeout(() => abort.abort(), this.idleLimitMs);
        for (const event of parser.feed(decoder.decode(chunk, { stream: true }))) {
          if (event.retry !== undefined) setRetry(event.retry);
          if (event.event === ENTITLEMENT_STREAM_EVENTS.revoked) {
            this.handlers.signedOut('device_signed_out');
            return 'ended';
          }
          if (event.event === ENTITLEMENT_STREAM_EVENTS.expired) return 'expired';
          if (event.event === ENTITLEMENT_STREAM_EVENTS.entitlements) await this.deliver(event.data);
        }
      }
    } catch (error) {
      if (!abort.signal.aborted) throw error;
    } finally {
      clearTimeout(idle);
      abort.abort();
    }
    return 'was-online';
  }

  private async deliver(data: string): Promise<void> {
    try {
      await this.handlers.document(SignedEntitlements.parse(JSON.parse(data)).token);
    } catch (error) {
      this.handlers.log(`entitlement stream: ${(error as Error).message}`);
    }
  }
}
