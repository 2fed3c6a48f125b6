import type { PoolClient } from 'pg';
import type { RecordedEvent } from '@meshwork/contracts';

/**
 * A read model built from the event log. Its tables live in a PostgreSQL schema of its own
 * (`rm_<name>`), so a rebuild can fill a fresh schema and swap it in whole.
 */
export interface Projection {
  /** Stable name: the checkpoint key, the lock key and (as rm_<name>) the schema. */
  readonly name: string;
  /**
   * The read model's shape, raised whenever createTables or apply change what is stored:
   * a read model built for another version is dropped and rebuilt from the log at start.
   * (1 when absent.)
   */
  readonly version?: number;
  /** Event types this projection reads ('all' for every one); others only move its checkpoint. */
  readonly handles: readonly string[] | 'all';
  /** Creates the read-model tables inside `schema` (which exists and is empty). */
  createTables(db: PoolClient, schema: string): Promise<void>;
  /** Applies one event inside the runner's transaction; writes go to tables in `schema`. */
  apply(db: PoolClient, schema: string, event: RecordedEvent): Promise<void>;
  /**
   * Optional: applies a batch's events it handles, in order, inside the runner's transaction,
   * instead of `apply` for each: for set-based writes (one statement for a batch's rows). The
   * result must be what `apply` for each would give, which rebuilds and replays still call.
   */
  applyBatch?(db: PoolClient, schema: string, events: RecordedEvent[]): Promise<void>;
}

/** The schema queries read: `SELECT ... FROM ${readModelSchema('users')}.users`. */
export function readModelSchema(projectionName: string): string {
  if (!/^[a-z][a-z0-9_]*$/.test(projectionName)) throw new Error(`Bad projection name ${projectionName}: use lowercase snake_case`);
  return `rm_${projectionName}`;
}

/** Whether the projection wants to see events of this type. */
export function handlesType(projection: Projection): (type: string) => boolean {
  if (projection.handles === 'all') return () => true;
  const types = new Set(projection.handles);
  return (type) => types.has(type);
}
