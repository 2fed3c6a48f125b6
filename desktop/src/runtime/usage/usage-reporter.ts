import { USAGE_REPORTS_PER_CALL, UsageReportsAnswer } from '@meshwork/contracts';
import { ApiError, type ApiClient } from '../api/api-client';
import type { UsageLedger } from './usage-ledger';

/** Who reports: the signed-in device and its api client, or null while signed out. */
export type UsageSender = () => { deviceId: string; api: ApiClient } | null;

export interface UsageReporterOptions {
  /** How often the current hour is sent again as it grows (and closed hours are retried). */
  everyMs?: number;
  /** The first wait after a failed send; each failure doubles it, up to `everyMs`. */
  retryMs?: number;
  log?: (message: string) => void;
}

export type FlushResult = 'sent' | 'nothing' | 'offline' | 'signed-out';

/**
 * Sends the ledger's pending hours to the platform: on a cadence (the current hour as an upsert,
 * every five minutes by default), and sooner when the host comes back online. Reports carry
 * cumulative figures keyed by device, model and hour, so a resend after a lost answer or a
 * crash is harmless. Offline, it retries with a doubling backoff; a report the platform refuses
 * as invalid (400) is dropped with a log line rather than retried for ever.
 */
export class UsageReporter {
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<FlushResult> | null = null;
  private failures = 0;
  private stopped = false;
  private readonly everyMs: number;
  private readonly retryMs: number;
  private readonly log: (message: string) => void;

  constructor(
    private readonly ledger: UsageLedger,
    private readonly sender: UsageSender,
    options: UsageReporterOptions = {},
  ) {
    this.everyMs = options.everyMs ?? 5 * 60_000;
    this.retryMs = Math.min(options.retryMs ?? 15_000, this.everyMs);
    this.log = options.log ?? (() => undefined);
  }

  start(): void {
    this.schedule(this.retryMs);
  }

  stop(): Promise<unknown> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    return this.flushing ?? Promise.resolve();
  }

  /** Sends everything pending now (one call at a time), in calls of at most 500 reports. */
  flush(): Promise<FlushResult> {
    this.flushing ??= this.sendAll().finally(() => (this.flushing = null));
    return this.flushing;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      void this.flush().then((result) => {
        this.failures = result === 'offline' ? this.failures + 1 : 0;
        this.schedule(this.failures > 0 ? Math.min(this.everyMs, this.retryMs * 2 ** (this.failures - 1)) : this.everyMs);
      });
    }, ms);
    this.timer.unref();
  }

  private async sendAll(): Promise<FlushResult> {
    let result: FlushResult = 'nothing';
    for (;;) {
      const sender = this.sender();
      if (!sender) return 'signed-out';
      const reports = this.ledger.pending(sender.deviceId, USAGE_REPORTS_PER_CALL);
      if (reports.length === 0) return result;
      try {
        await sender.api.request('/devices/usage-reports/', { body: { reports }, schema: UsageReportsAnswer });
        await this.ledger.markSent(sender.deviceId, reports);
        result = 'sent';
      } catch (error) {
        if (error instanceof ApiError && error.status === 400) {
          // Invalid for the platform (too old, out of bounds): drop the reports it names, or the whole call.
          const named = Object.keys(error.body.errors ?? {}).flatMap((field) => /^reports\.(\d+)/.exec(field)?.[1] ?? []);
          const refused = named.length > 0 ? [...new Set(named)].map((i) => reports[Number(i)]!).filter(Boolean) : reports;
          this.log(`usage: the platform refused ${refused.length} report(s): ${error.message}; dropped`);
          await this.ledger.markSent(sender.deviceId, refused);
          continue;
        }
        if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return 'signed-out';
        this.log(`usage: not sent (${(error as Error).message}); will retry`);
        return 'offline';
      }
    }
  }
}
