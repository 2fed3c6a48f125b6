import type { Pool, PoolClient } from 'pg';
import type { EventStore } from '../../../api/src/platform/event-store/event-store.port';
import type { Logger } from '../../../api/src/platform/logging/logger';
import type { Projection } from './projection';
import { handlesType, readModelSchema } from './projection';

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
 */
export async function rebuildProjection(pool: Pool, store: EventStore, projection: Projection, logger?: Logger): Promise<number> {
  const live = readModelSchema(projection.name);
  const next = `${live}__next`;
  const old = `${live}__old`;
  const handles = handlesType(projection);

  const client = await pool.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${next} CASCADE`);
    await client.query('BEGIN');
    await client.query(`CREATE SCHEMA ${next}`);
    await projection.createTables(client, next);
    await client.query('COMMIT');

    const applyUpTo = async (db: PoolClient, from: number, stopAt: number | null): Promise<number> => {
      let position = from;
      for (;;) {
        const events = await store.readAll(position, BATCH);
        if (events.length === 0) return position;
        for (const event of events) {
          if (stopAt !== null && event.position > stopAt) return position;
          if (handles(event.type)) await projection.apply(db, next, event);
          position = event.position;
        }
      }
    };

    // Step 1: bulk replay in batches; each batch commits so no transaction grows huge.
    let position = 0;
    const head = await store.headPosition();
    while (position < head) {
      await client.query('BEGIN');
      const reached = await applyUpTo(client, position, Math.min(head, position + 50_000));
      await client.query('COMMIT');
      if (reached === position) break;
      position = reached;
      logger?.info({ projection: projection.name, position, head }, 'rebuild progress');
    }

    // Step 2: catch the tail and swap under the checkpoint row lock.
    await client.query('BEGIN');
    await client.query(`INSERT INTO projection_checkpoints (name) VALUES ($1) ON CONFLICT DO NOTHING`, [projection.name]);
    await client.query('SELECT position FROM projection_checkpoints WHERE name = $1 FOR UPDATE', [projection.name]);
    position = await applyUpTo(client, position, null);
    await client.query(`DROP SCHEMA IF EXISTS ${old} CASCADE`);
    const { rowCount } = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [live]);
    if (rowCount) await client.query(`ALTER SCHEMA ${live} RENAME TO ${old}`);
    await client.query(`ALTER SCHEMA ${next} RENAME TO ${live}`);
    await client.query('UPDATE projection_checkpoints SET position = $2, version = $3, updated_at = now() WHERE name = $1', [
      projection.name,
      position,
      projection.version ?? 1,
    ]);
    await client.query('COMMIT');
    await client.query(`DROP SCHEMA IF EXISTS ${old} CASCADE`);
    logger?.info({ projection: projection.name, position }, 'rebuild swapped in');
    return position;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
