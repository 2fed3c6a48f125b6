import type { Pool } from 'pg';
import type { RecordedEvent } from '@meshwork/contracts';
import type { EventStore } from '../event-store/event-store.port';
import type { Projection } from './projection';
import { handlesType } from './projection';
import { skipDecided } from './skip-decisions';
import { textSafe } from './text-safe-client';

const BATCH = 2_000;

/** The comment that marks a schema as a replay, so a later replay may replace it and nothing else. */
const MARK = 'meshwork replay';

/** A schema name a replay may fill: lowercase, not a live read model's (rm_), not PostgreSQL's own, not public. */
export function isReplaySchemaName(name: string): boolean {
  return /^[a-z][a-z0-9_]{0,62}$/.test(name) && !/^(rm_|pg_)/.test(name) && !['public', 'information_schema'].includes(name);
}

/**
 * Builds a read model as it stood at a point of the log, in a schema of its own beside the
 * live one, for auditors to query (issue 15 §2): the projection's tables created in `into`,
 * then the log applied from the start up to the first event `included` refuses. The live read
 * model, its checkpoint and its runner are not touched. Events staff decided to skip are
 * skipped, as the live runner does; any other event that cannot be applied ends the replay
 * with its position.
 */
export async function replayProjectionInto(
  pool: Pool,
  store: EventStore,
  projection: Projection,
  into: string,
  included: (event: RecordedEvent) => boolean,
): Promise<{ position: number; applied: number }> {
  if (!isReplaySchemaName(into)) throw new Error(`${into} cannot hold a replay: use a new lowercase name not starting with rm_ or pg_`);
  const handles = handlesType(projection);
  const client = await pool.connect();
  const db = textSafe(client);
  try {
    const { rows } = await client.query<{ mark: string | null }>(
      'SELECT obj_description(oid, $2) AS mark FROM pg_namespace WHERE nspname = $1',
      [into, 'pg_namespace'],
    );
    if (rows[0] && !rows[0].mark?.startsWith(MARK)) throw new Error(`Schema ${into} exists and is not a replay: choose another name`);
    await client.query('BEGIN');
    await client.query(`DROP SCHEMA IF EXISTS ${into} CASCADE`);
    await client.query(`CREATE SCHEMA ${into}`);
    await projection.createTables(client, into);
    await client.query('COMMIT');

    let position = 0;
    let applied = 0;
    for (let done = false; !done;) {
      const events = await store.readAll(position, BATCH);
      if (events.length === 0) break;
      await client.query('BEGIN');
      for (const event of events) {
        if (!included(event)) {
          done = true;
          break;
        }
        if (handles(event.type)) {
          try {
            await client.query('SAVEPOINT event');
            await projection.apply(db, into, event);
            await client.query('RELEASE SAVEPOINT event');
            applied++;
          } catch (error) {
            await client.query('ROLLBACK TO SAVEPOINT event');
            if (!(await skipDecided(store, projection.name, event.position))) {
              throw new Error(`${projection.name} cannot apply the ${event.type} event at position ${event.position}`, { cause: error });
            }
          }
        }
        position = event.position;
      }
      await client.query('COMMIT');
    }
    await client.query(`COMMENT ON SCHEMA ${into} IS '${MARK} of ${projection.name} up to position ${position}'`);
    return { position, applied };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
