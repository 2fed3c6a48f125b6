import type { Pool, PoolClient } from 'pg';
import type { RecordedEvent } from '../../../contracts/src/events/event-envelope';
import type { EventStore } from '../../../api/src/platform/event-store/event-store.port';
import type { Logger } from '../../../api/src/platform/logging/logger';
import type { Projection } from './projection';
import { readModelSchema } from './projection';

export interface RunnerOptions {
  batchSize?: number;
  /** Longest sleep with nothing to do; a NOTIFY from an append ends it sooner. */
  idleWaitMs?: number;
  /** How often a standby runner asks for the lock. */
  standbyRetryMs?: number;
  logger?: Logger;
  /** Called after each committed batch (benchmarks measure lag with it). */
  onCommitted?: (events: RecordedEvent[]) => void;
}

/** Namespaces our advisory locks away from anyone else's in the same database. */
const LOCK_CLASS = 4242;

export type RunnerState = 'starting' | 'standby' | 'active' | 'stopped';

/**
 * Runs one projection over the event log.
 *
 * Exactly once in effect: each batch's read-model writes and the checkpoint commit in one
 * transaction, so a crash anywhere leaves either both or neither. The batch first locks the
 * checkpoint row and checks it is still where this runner left it, so a rebuild (or a
 * runner that wrongly believes it holds the lock) can never apply a batch twice.
 *
 * One runner at a time: a session advisory lock per projection. Others stand by and take
 * over when the holder's connection ends, which PostgreSQL notices when its process dies.
 */
export class ProjectionRunner {
  state: RunnerState = 'starting';
  private stopping = false;
  private loop: Promise<void> | null = null;
  private readonly schema: string;
  private readonly handles: Set<string>;

  constructor(
    private readonly pool: Pool,
    private readonly store: EventStore,
    private readonly projection: Projection,
    private readonly options: RunnerOptions = {},
  ) {
    this.schema = readModelSchema(projection.name);
    this.handles = new Set(projection.handles);
  }

  get name(): string {
    return this.projection.name;
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
      let lock: PoolClient | null = null;
      try {
        lock = await this.acquireLock();
        if (!lock) return;
        this.state = 'active';
        this.options.logger?.info({ projection: this.name }, 'projection runner active');
        await this.processWhileHolding(lock);
      } catch (error) {
        this.options.logger?.error({ projection: this.name, err: error }, 'projection runner failed; retrying');
        await sleep(1_000);
      } finally {
        if (lock) await releaseLock(lock, this.name);
        if (!this.stopping) this.state = 'standby';
      }
    }
  }

  /** Waits for this projection's lock; null when stopped first. */
  private async acquireLock(): Promise<PoolClient | null> {
    while (!this.stopping) {
      const client = await this.pool.connect();
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked', [LOCK_CLASS, this.name]);
      if (rows[0]!.locked) return client;
      client.release();
      this.state = 'standby';
      await sleep(this.options.standbyRetryMs ?? 1_000);
    }
    return null;
  }

  private async processWhileHolding(lock: PoolClient): Promise<void> {
    let lockLost = false;
    lock.on('error', () => (lockLost = true)); // may fire more than once as the connection dies
    let checkpoint = await this.prepare();
    while (!this.stopping && !lockLost) {
      const events = await this.store.readAll(checkpoint, this.options.batchSize ?? 500);
      if (events.length === 0) {
        await this.store.waitForAppend(this.options.idleWaitMs ?? 500);
        continue;
      }
      checkpoint = await this.applyBatch(checkpoint, events);
    }
  }

  /** Creates the schema and checkpoint on first run; a dropped schema means start over. */
  private async prepare(): Promise<number> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const { rowCount } = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [this.schema]);
      if (rowCount === 0) {
        await client.query(`CREATE SCHEMA ${this.schema}`);
        await this.projection.createTables(client, this.schema);
        await client.query(
          `INSERT INTO projection_checkpoints (name, position) VALUES ($1, 0)
           ON CONFLICT (name) DO UPDATE SET position = 0, updated_at = now()`,
          [this.name],
        );
      } else {
        await client.query('INSERT INTO projection_checkpoints (name) VALUES ($1) ON CONFLICT DO NOTHING', [this.name]);
      }
      const { rows } = await client.query<{ position: string }>('SELECT position FROM projection_checkpoints WHERE name = $1', [this.name]);
      await client.query('COMMIT');
      return Number(rows[0]!.position);
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** Applies a batch and moves the checkpoint in one transaction; returns the new checkpoint. */
  private async applyBatch(checkpoint: number, events: RecordedEvent[]): Promise<number> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ position: string }>('SELECT position FROM projection_checkpoints WHERE name = $1 FOR UPDATE', [
        this.name,
      ]);
      const current = Number(rows[0]!.position);
      if (current !== checkpoint) {
        // A rebuild swapped in a new read model, or another runner moved on: follow it.
        await client.query('ROLLBACK');
        return current;
      }
      for (const event of events) {
        if (this.handles.has(event.type)) await this.projection.apply(client, this.schema, event);
      }
      const last = events[events.length - 1]!.position;
      await client.query('UPDATE projection_checkpoints SET position = $2, updated_at = now() WHERE name = $1', [this.name, last]);
      await client.query('COMMIT');
      this.options.onCommitted?.(events);
      return last;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}

async function releaseLock(lock: PoolClient, name: string): Promise<void> {
  try {
    await lock.query('SELECT pg_advisory_unlock($1, hashtext($2))', [LOCK_CLASS, name]);
    lock.release();
  } catch {
    lock.release(true); // the connection is gone, and the lock with it
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
