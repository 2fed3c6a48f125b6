import type { Pool } from 'pg';
import type { EventStore } from '../event-store/event-store.port';
import type { Logger } from '../logging/logger';
import type { Projection } from './projection';
import { handlesType, readModelSchema } from './projection';
import { isTransientPostgresError } from './retry-policy';
import { skipDecided } from './skip-decisions';
import { textSafe } from './text-safe-client';

const BATCH = 2_000;

/**
 * Replays the whole log into a fresh schema and swaps it in, while readers keep reading
 * the old one and the live runner keeps going.
 *
 * 1. Fill `rm_<name>__next` from position 0 up to about the head, in short transactions.
 * 2. In one transaction: lock the checkpoint row (the live runner's next batch now waits),
 *    apply the last few events, swap the schemas by renaming, and set the checkpoint.
 *    The live runner then finds the checkpoint moved and carries on from it, writing to
 *    the new tables, which it finds by name.
 * Readers see the old tables until the commit and the new ones after it, never neither.
 * An event the projection cannot apply ends the rebuild just before it (unless staff decided
 * to skip it): the read model is swapped in up to there and the live runner takes it from
 * that event, retrying and reporting it.
 */
export async function rebuildProjection(pool: Pool, store: EventStore, projection: Projection, logger?: Logger): Promise<number> {
  const live = readModelSchema(projection.name);
  const next = `${live}__next`;
  const old = `${live}__old`;
  const handles = handlesType(projection);
  // Positions that failed and that staff decided to skip; and the first one that failed without
  // such a decision. The rebuild stops before that one: the live runner then retries it and
  // reports it (see FailureRecovery), rather than the rebuild failing the whole start.
  const skipped = new Set<number>();
  let blockedAt: number | null = null;

  const client = await pool.connect();
  const db = textSafe(client);
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${next} CASCADE`);
    await client.query('BEGIN');
    await client.query(`CREATE SCHEMA ${next}`);
    await projection.createTables(client, next);
    await client.query('COMMIT');

    const applyUpTo = async (from: number, stopAt: number | null): Promise<number> => {
      let position = from;
      for (;;) {
        const events = await store.readAll(position, BATCH);
        if (events.length === 0) return position;
        for (const event of events) {
          if ((stopAt !== null && event.position > stopAt) || (blockedAt !== null && event.position >= blockedAt)) return position;
          if (handles(event.type) && !skipped.has(event.position)) {
            await projection.apply(db, next, event).catch((error: unknown) => {
              throw isTransientPostgresError(error) ? error : new FailedEvent(event.position, error);
            });
          }
          position = event.position;
        }
      }
    };

    /** `work` in one transaction; an event that fails rolls it back, and it runs again without that event. */
    const inTransaction = async <T>(work: () => Promise<T>): Promise<T> => {
      for (;;) {
        await client.query('BEGIN');
        try {
          const result = await work();
          await client.query('COMMIT');
          return result;
        } catch (error) {
          await client.query('ROLLBACK');
          if (!(error instanceof FailedEvent)) throw error;
          if (await skipDecided(store, projection.name, error.position)) skipped.add(error.position);
          else blockedAt = error.position;
          logger?.warn({ projection: projection.name, position: error.position, err: error.cause }, 'rebuild met an event it cannot apply');
        }
      }
    };

    // Step 1: bulk replay in batches; each batch commits so no transaction grows huge.
    let position = 0;
    const head = await store.headPosition();
    while (position < head) {
      const from = position;
      const reached = await inTransaction(() => applyUpTo(from, Math.min(head, from + 50_000)));
      if (reached === position) break;
      position = reached;
      logger?.info({ projection: projection.name, position, head }, 'rebuild progress');
    }

    // Step 2: catch the tail and swap under the checkpoint row lock.
    const upTo = position;
    position = await inTransaction(async () => {
      await client.query(`INSERT INTO projection_checkpoints (name) VALUES ($1) ON CONFLICT DO NOTHING`, [projection.name]);
      await client.query('SELECT position FROM projection_checkpoints WHERE name = $1 FOR UPDATE', [projection.name]);
      const reached = await applyUpTo(upTo, null);
      await client.query(`DROP SCHEMA IF EXISTS ${old} CASCADE`);
      const { rowCount } = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [live]);
      if (rowCount) await client.query(`ALTER SCHEMA ${live} RENAME TO ${old}`);
      await client.query(`ALTER SCHEMA ${next} RENAME TO ${live}`);
      await client.query('UPDATE projection_checkpoints SET position = $2, version = $3, updated_at = now() WHERE name = $1', [
        projection.name,
        reached,
        projection.version ?? 1,
      ]);
      return reached;
    });
    await client.query(`DROP SCHEMA IF EXISTS ${old} CASCADE`);
    logger?.info({ projection: projection.name, position, stoppedBefore: blockedAt }, 'rebuild swapped in');
    return position;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** An event the projection could not apply during a rebuild. */
class FailedEvent extends Error {
  constructor(
    readonly position: number,
    override readonly cause: unknown,
  ) {
    super(`cannot apply the event at position ${position}`);
  }
}
