import { Inject, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Pool } from 'pg';
import { DATABASE, type Database } from '../database/database';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { logger } from '../logging/logger';
import { ExclusiveFollower, type LogConsumer, NotOwnerError } from './exclusive-follower';
import { waitForProjection } from './projection-waiter';

/**
 * The checkpoint of a consumer that turns events into commands (a process manager), kept in
 * projection_checkpoints under its name. Unlike a read model's, it is moved outside the
 * commands' transactions (they are at least once), so it moves only from where this process
 * left it: a row moved by someone else means another process took over, and NotOwnerError
 * makes ExclusiveFollower give up the lock.
 */
export class OwnCheckpoint {
  constructor(
    private readonly pool: Pool,
    private readonly name: string,
  ) {}

  /** Where to read from: the stored position, the log's start (0) the first time. */
  async read(): Promise<number> {
    await this.pool.query('INSERT INTO projection_checkpoints (name) VALUES ($1) ON CONFLICT DO NOTHING', [this.name]);
    const { rows } = await this.pool.query<{ position: string }>('SELECT position FROM projection_checkpoints WHERE name = $1', [
      this.name,
    ]);
    return Number(rows[0]!.position);
  }

  /** Moves the checkpoint from `from` to `to`; answers `to`. */
  async move(from: number, to: number): Promise<number> {
    if (to === from) return to;
    const { rowCount } = await this.pool.query(
      'UPDATE projection_checkpoints SET position = $2, updated_at = now() WHERE name = $1 AND position = $3',
      [this.name, to, from],
    );
    if (rowCount === 0) throw new NotOwnerError(`${this.name} checkpoint moved under us: another follower is running`);
    return to;
  }
}

/** The read models a batch reads were not yet at its events: a transient error, tried again (they follow within moments). */
export class ReadModelsBehind extends Error {}

/**
 * How long a batch waits for the read models before ReadModelsBehind. Shorter than a command's
 * read-your-writes wait: the retry says so out loud, and stopping the follower waits for the
 * batch in hand.
 */
const READ_MODELS_WAIT_MS = 5_000;

/** Waits until each of `readModels` has applied the event at `position`, or throws ReadModelsBehind. */
export async function awaitReadModels(pool: Pool, readModels: readonly string[], position: number): Promise<void> {
  const caughtUp = await Promise.all(readModels.map((name) => waitForProjection(pool, name, position, READ_MODELS_WAIT_MS)));
  if (caughtUp.includes(false)) throw new ReadModelsBehind(`read models are not yet at position ${position}`);
}

/**
 * A context's follower of the log as a Nest provider: the consumer it builds runs in every api
 * process from bootstrap to shutdown, one process at a time active (ExclusiveFollower's lock).
 * The database and the event store are injected into properties, so a subclass's constructor
 * lists only what its consumer needs.
 */
export abstract class CommandFollower implements OnApplicationBootstrap, OnApplicationShutdown {
  @Inject(DATABASE) private readonly database!: Database;
  @Inject(EVENT_STORE) private readonly store!: EventStore;
  private follower: ExclusiveFollower | null = null;

  /** The consumer to run, built at bootstrap, once every provider is there. */
  protected abstract consumer(): LogConsumer;

  protected get pool(): Pool {
    return this.database.pool;
  }

  onApplicationBootstrap(): void {
    this.follower = new ExclusiveFollower(this.pool, this.store, this.consumer(), { logger }).start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.follower?.stop();
  }
}
