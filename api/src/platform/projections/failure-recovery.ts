import type { Pool } from 'pg';
import type { RecordedEvent } from '@meshwork/contracts';
import type { EventStore } from '../event-store/event-store.port';
import type { Logger } from '../logging/logger';
import { clearFailure, errorText, recordFailure, takeRetryRequest } from './consumer-failures';
import type { LogConsumer } from './exclusive-follower';
import { backoffMs, defaultRetry, type RetryOptions } from './retry-policy';
import { skipDecided } from './skip-decisions';

type Wake = 'timeout' | 'retry' | 'stop';

/**
 * What a log consumer does when handling a batch throws. It finds the event that fails (the
 * ones before it are handled and checkpointed), then retries that event with exponential
 * backoff, recording each failure in projection_failures so any process can report it.
 * After a bounded number of attempts it stops, stalled, until a retry is requested (staff,
 * the CLI) or the process restarts. It never moves past the event by itself: only a
 * recorded decision (a ProjectionEventSkipped event for exactly that position) skips it.
 * Errors about the connection rather than the event are retried without bound: an outage
 * shows as failing, and heals by itself when the server is back.
 */
export class FailureRecovery {
  private readonly retry: Required<RetryOptions>;

  constructor(
    private readonly pool: Pool,
    private readonly store: EventStore,
    private readonly consumer: LogConsumer,
    private readonly hooks: { stopped(): boolean; setState(state: 'active' | 'failing' | 'stalled'): void; logger?: Logger },
    retry: RetryOptions = {},
  ) {
    this.retry = { ...defaultRetry, ...retry };
  }

  /** Called when `events` failed as a batch; returns the checkpoint to go on from. */
  async recover(checkpoint: number, events: RecordedEvent[], error: unknown): Promise<number> {
    let failed = events[0]!;
    let cause = error;
    if (events.length > 1) {
      // One at a time, so the events before the failing one commit with their checkpoints.
      const found = await this.firstFailing(checkpoint, events);
      if (!found.event) return found.checkpoint; // all went through: the batch's error has passed
      [checkpoint, failed, cause] = [found.checkpoint, found.event, found.error];
    }
    return this.retryUntilPast(checkpoint, failed, cause);
  }

  private async firstFailing(
    checkpoint: number,
    events: RecordedEvent[],
  ): Promise<{ checkpoint: number; event?: RecordedEvent; error?: unknown }> {
    for (const event of events) {
      if (this.hooks.stopped()) break;
      try {
        const next = await this.consumer.handle(checkpoint, [event]);
        // Someone else moved the checkpoint (a rebuild swapped in): follow it, from a fresh read.
        if (next !== event.position) return { checkpoint: next };
        checkpoint = next;
      } catch (error) {
        return { checkpoint, event, error };
      }
    }
    return { checkpoint };
  }

  private async retryUntilPast(checkpoint: number, event: RecordedEvent, error: unknown): Promise<number> {
    const transient = this.consumer.isTransient?.bind(this.consumer) ?? (() => false);
    for (let attempts = 1; ; attempts++) {
      if (await skipDecided(this.store, this.consumer.name, event.position)) {
        const next = await this.consumer.skip(checkpoint, event);
        this.hooks.logger?.warn({ consumer: this.consumer.name, position: event.position, type: event.type }, 'event skipped by decision');
        return this.past(next);
      }
      const stalled = attempts >= this.retry.attempts && !transient(error);
      await recordFailure(this.pool, this.consumer.name, event, error, attempts, stalled ? 'stalled' : 'failing');
      this.hooks.setState(stalled ? 'stalled' : 'failing');
      this.hooks.logger?.error(
        {
          consumer: this.consumer.name,
          position: event.position,
          type: event.type,
          eventId: event.eventId,
          attempts,
          error: errorText(error),
        },
        stalled ? 'log consumer stalled on an event; waiting for a fix and a retry' : 'log consumer failed on an event; retrying',
      );
      const wake = await this.pause(stalled ? null : backoffMs(attempts, this.retry));
      if (wake === 'stop') return checkpoint;
      if (wake === 'retry') attempts = 0; // staff asked: a fresh round of attempts
      try {
        return this.past(await this.consumer.handle(checkpoint, [event]));
      } catch (next) {
        error = next;
      }
    }
  }

  private async past(checkpoint: number): Promise<number> {
    await clearFailure(this.pool, this.consumer.name);
    this.hooks.setState('active');
    return checkpoint;
  }

  /** Waits `ms` (null: until asked), looking for a retry request every pollMs. */
  private async pause(ms: number | null): Promise<Wake> {
    const until = ms === null ? Infinity : Date.now() + ms;
    for (;;) {
      if (this.hooks.stopped()) return 'stop';
      if (await takeRetryRequest(this.pool, this.consumer.name)) return 'retry';
      const left = until - Date.now();
      if (left <= 0) return 'timeout';
      await new Promise((resolve) => setTimeout(resolve, Math.min(left, this.retry.pollMs)));
    }
  }
}
