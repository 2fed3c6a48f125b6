import type { Pool, PoolClient } from 'pg';
import type { RecordedEvent } from '@meshwork/contracts';
import type { EventStore } from '../event-store/event-store.port';
import { logger } from '../logging/logger';
import { inTurn, withTransaction } from '../database/transaction';
import { ExclusiveFollower, type FollowerOptions, type LogConsumer } from './exclusive-follower';
import type { Projection } from './projection';
import { handlesType, readModelSchema } from './projection';
import { rebuildProjection } from './rebuild-projection';
import { isTransientPostgresError } from './retry-policy';
import { textSafe } from './text-safe-client';

export interface RunnerOptions extends FollowerOptions {
  /** Called after each committed batch (benchmarks measure lag with it). */
  onCommitted?: (events: RecordedEvent[]) => void;
}

/**
 * Runs one projection over the event log, one runner at a time (see ExclusiveFollower).
 *
 * Exactly once in effect: each batch's read-model writes and the checkpoint commit in one
 * transaction, so a crash anywhere leaves either both or neither. The batch first locks the
 * checkpoint row and checks it is still where this runner left it, so a rebuild (or a
 * runner that wrongly believes it holds the lock) can never apply a batch twice.
 */
export class ProjectionRunner extends ExclusiveFollower {
  private readonly projectionConsumer: ProjectionConsumer;

  constructor(pool: Pool, store: EventStore, projection: Projection, options: RunnerOptions = {}) {
    const consumer = new ProjectionConsumer(pool, store, projection, options.onCommitted);
    super(pool, store, consumer, options);
    this.projectionConsumer = consumer;
  }

  /**
   * Creates the read model's tables if they do not exist yet, without waiting for the lock:
   * queries that join several read models must find them all from the first request.
   * Another process creating them at the same moment is fine.
   */
  async ensureTables(): Promise<void> {
    await this.projectionConsumer.prepare().catch(async (error: unknown) => {
      if ((error as { code?: string }).code !== '42P06') throw error; // duplicate_schema: created by the other process
    });
  }
}

class ProjectionConsumer implements LogConsumer {
  private readonly schema: string;
  private readonly handles: (type: string) => boolean;

  constructor(
    private readonly pool: Pool,
    private readonly store: EventStore,
    private readonly projection: Projection,
    private readonly onCommitted?: (events: RecordedEvent[]) => void,
  ) {
    this.schema = readModelSchema(projection.name);
    this.handles = handlesType(projection);
  }

  get name(): string {
    return this.projection.name;
  }

  /**
   * Creates the schema and checkpoint on first run (a dropped schema means start over).
   * A read model built for another version of the projection is rebuilt from the log into
   * a fresh schema and swapped in (rebuildProjection) before this returns: readers go on
   * with the old tables meanwhile and never see the new ones half filled.
   */
  async prepare(): Promise<number> {
    const position = await this.prepareForThisVersion();
    if (position !== null) return position;
    // One process rebuilds; another starting at the same time waits, then finds it done.
    return inTurn(this.pool, `rebuild:${this.name}`, async () => (await this.prepareForThisVersion()) ?? this.rebuild());
  }

  /** The checkpoint, creating the read model if there is none; null when it was built for another version. */
  private prepareForThisVersion(): Promise<number | null> {
    const version = this.projection.version ?? 1;
    return withTransaction(this.pool, async (client) => {
      await client.query('INSERT INTO projection_checkpoints (name, version) VALUES ($1, $2) ON CONFLICT DO NOTHING', [this.name, version]);
      const { rows } = await client.query<{ position: string; version: number }>(
        'SELECT position, version FROM projection_checkpoints WHERE name = $1 FOR UPDATE',
        [this.name],
      );
      const { rowCount } = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [this.schema]);
      if (rowCount !== 0) return rows[0]!.version === version ? Number(rows[0]!.position) : null;
      await client.query(`CREATE SCHEMA ${this.schema}`);
      await this.projection.createTables(client, this.schema);
      await client.query('UPDATE projection_checkpoints SET position = 0, version = $2, updated_at = now() WHERE name = $1', [
        this.name,
        version,
      ]);
      return 0;
    });
  }

  private async rebuild(): Promise<number> {
    logger.info({ projection: this.name, version: this.projection.version ?? 1 }, 'rebuilding the read model for a new version');
    return rebuildProjection(this.pool, this.store, this.projection, logger);
  }

  /** Applies a batch and moves the checkpoint in one transaction. */
  async handle(checkpoint: number, events: RecordedEvent[]): Promise<number> {
    const committed = await this.atCheckpoint(checkpoint, events[events.length - 1]!.position, async (client) => {
      // Through textSafe: a read model can hold any text the log holds (see text-safe-client.ts).
      const db = textSafe(client);
      const handled = events.filter((event) => this.handles(event.type));
      if (this.projection.applyBatch) {
        if (handled.length > 0) await this.projection.applyBatch(db, this.schema, handled);
      } else for (const event of handled) await this.projection.apply(db, this.schema, event);
    });
    if (committed.applied) this.onCommitted?.(events);
    return committed.position;
  }

  /** Moves the checkpoint past the event without applying it (a recorded decision to skip it). */
  async skip(checkpoint: number, event: RecordedEvent): Promise<number> {
    return (await this.atCheckpoint(checkpoint, event.position, async () => undefined)).position;
  }

  isTransient(error: unknown): boolean {
    return isTransientPostgresError(error);
  }

  /**
   * Runs `work` and moves the checkpoint to `to` in one transaction, provided the checkpoint
   * is still where this runner left it. A rebuild swapped in a new read model, or another
   * runner moved on: then nothing is done, and the runner follows the checkpoint it finds.
   */
  private atCheckpoint(
    checkpoint: number,
    to: number,
    work: (client: PoolClient) => Promise<void>,
  ): Promise<{ position: number; applied: boolean }> {
    return withTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ position: string }>('SELECT position FROM projection_checkpoints WHERE name = $1 FOR UPDATE', [
        this.name,
      ]);
      const current = Number(rows[0]!.position);
      if (current !== checkpoint) return { position: current, applied: false };
      await work(client);
      await client.query('UPDATE projection_checkpoints SET position = $2, updated_at = now() WHERE name = $1', [this.name, to]);
      return { position: to, applied: true };
    });
  }
}
