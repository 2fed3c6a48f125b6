import type { Pool } from 'pg';
import type { RecordedEvent } from '@meshwork/contracts';
import { type HeldConnection, holdConnection } from '../database/held-connection';
import type { EventStore } from '../event-store/event-store.port';
import type { Logger } from '../logging/logger';
import { clearFailure, readFailures } from './consumer-failures';
import { FailureRecovery } from './failure-recovery';
import type { RetryOptions } from './retry-policy';

/** Something that follows the log from a checkpoint it keeps itself: a projection, the relay. */
export interface LogConsumer {
  /** Stable name: the checkpoint key and the advisory lock key. */
  readonly name: string;
  /** Called on taking the lock; returns the checkpoint to read from. */
  prepare(): Promise<number>;
  /** Handles a batch and stores the new checkpoint; returns it (or where the checkpoint really is). */
  handle(checkpoint: number, events: RecordedEvent[]): Promise<number>;
  /** Moves the checkpoint past `event` without handling it: only on a recorded decision to skip it. */
  skip(checkpoint: number, event: RecordedEvent): Promise<number>;
  /** Called whenever the log has nothing new (about every idleWaitMs): the sealer seals an idle tail here. */
  idle?(checkpoint: number): Promise<void>;
  /** Whether an error is about a server or connection, not the event: retried without bound, never stalled. */
  isTransient?(error: unknown): boolean;
}

export interface FollowerOptions {
  batchSize?: number;
  /** Longest sleep with nothing to do; a NOTIFY from an append ends it sooner. */
  idleWaitMs?: number;
  /** How often a standby asks for the lock. */
  standbyRetryMs?: number;
  /** Backoff and bound for an event that fails (see FailureRecovery). */
  retry?: RetryOptions;
  logger?: Logger;
}

/** The consumer found its checkpoint moved by someone else: give up the lock and start over. */
export class NotOwnerError extends Error {}

/** Namespaces our advisory locks away from anyone else's in the same database. */
export const LOCK_CLASS = 4242;

export type FollowerState = 'starting' | 'standby' | 'active' | 'failing' | 'stalled' | 'stopped';

/**
 * Feeds one consumer from the log, with only one process doing so at a time: a session
 * advisory lock per consumer name. Others stand by and take over when the holder's
 * connection ends, which PostgreSQL notices when its process dies.
 */
export class ExclusiveFollower {
  state: FollowerState = 'starting';
  private stopping = false;
  /** The connection holding this consumer's lock, while it follows. */
  private held: HeldConnection | null = null;
  private loop: Promise<void> | null = null;
  private readonly recovery: FailureRecovery;

  constructor(
    private readonly pool: Pool,
    private readonly store: EventStore,
    private readonly consumer: LogConsumer,
    private readonly options: FollowerOptions = {},
  ) {
    this.recovery = new FailureRecovery(
      pool,
      store,
      consumer,
      { stopped: () => this.stopping || this.held?.alive === false, setState: (state) => (this.state = state), logger: options.logger },
      options.retry,
    );
  }

  get name(): string {
    return this.consumer.name;
  }

  start(): this {
    this.loop ??= this.run();
    return this;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.loop;
    this.state = 'stopped';
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      let lock: HeldConnection | null = null;
      try {
        lock = await this.acquireLock();
        if (!lock) return;
        this.state = 'active';
        this.options.logger?.info({ consumer: this.name }, 'log consumer active');
        await this.followWhileHolding(lock);
      } catch (error) {
        this.options.logger?.error({ consumer: this.name, err: error }, 'log consumer failed; retrying');
        await sleep(1_000);
      } finally {
        if (lock) await releaseLock(lock, this.name);
        if (!this.stopping) this.state = 'standby';
      }
    }
  }

  /** Waits for this consumer's lock; null when stopped first. The lock lives as long as its connection. */
  private async acquireLock(): Promise<HeldConnection | null> {
    while (!this.stopping) {
      const lock = await holdConnection(this.pool);
      try {
        const { rows } = await lock.client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked', [
          LOCK_CLASS,
          this.name,
        ]);
        if (rows[0]!.locked) return lock;
      } catch (error) {
        lock.release(true);
        throw error;
      }
      lock.release();
      this.state = 'standby';
      await sleep(this.options.standbyRetryMs ?? 1_000);
    }
    return null;
  }

  private async followWhileHolding(lock: HeldConnection): Promise<void> {
    this.held = lock;
    let checkpoint = await this.consumer.prepare();
    // A failure recorded before this process took over (stalled, say) is tried again now, so
    // a fixed deploy heals it; the record goes once the checkpoint is past it.
    let recorded = (await readFailures(this.pool, [this.name])).get(this.name)?.position ?? null;
    while (!this.stopping && lock.alive) {
      const events = await this.store.readAll(checkpoint, this.options.batchSize ?? 500);
      if (events.length === 0) {
        await this.consumer.idle?.(checkpoint);
        await this.store.waitForAppend(this.options.idleWaitMs ?? 500);
        continue;
      }
      try {
        checkpoint = await this.consumer.handle(checkpoint, events);
      } catch (error) {
        if (error instanceof NotOwnerError) throw error;
        checkpoint = await this.recovery.recover(checkpoint, events, error);
        recorded = null; // recovery clears its own record once past it
      }
      if (recorded !== null && checkpoint >= recorded) {
        await clearFailure(this.pool, this.name);
        recorded = null;
      }
    }
  }
}

/** Gives the lock up, and its connection back, exactly once; a dead connection took the lock with it. */
async function releaseLock(lock: HeldConnection, name: string): Promise<void> {
  if (!lock.alive) return;
  try {
    await lock.client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [LOCK_CLASS, name]);
    lock.release();
  } catch {
    lock.release(true);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
