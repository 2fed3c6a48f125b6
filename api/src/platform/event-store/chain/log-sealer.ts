import type { Pool } from 'pg';
import type { RecordedEvent } from '@meshwork/contracts';
import { withTransaction } from '../../database/transaction';
import type { EventStore } from '../event-store.port';
import { ExclusiveFollower, type FollowerOptions, type LogConsumer, NotOwnerError } from '../../projections/exclusive-follower';
import { isTransientPostgresError } from '../../projections/retry-policy';
import { CHAINED_COLUMNS, type ChainedRow, GENESIS, link, signSeal } from './log-chain';

export const SEALER_NAME = 'log_sealer';

const BATCH_SIZE = 2000;

/** A signed checkpoint every thousand events, and on reaching the head of the log at most once a second. */
const SEAL_EVERY_EVENTS = 1000;
const SEAL_AT_HEAD_EVERY_MS = 1_000;

/**
 * Follows the log like a projection (one process at a time, holes waited out by readAll) and
 * extends the hash chain over each batch in one transaction with its checkpoint, signing seals
 * as SEAL_EVERY_EVENTS says. Writers never wait for it.
 */
export class LogSealer extends ExclusiveFollower {
  constructor(pool: Pool, store: EventStore, key: Buffer, options: FollowerOptions = {}) {
    super(pool, store, new SealingConsumer(pool, key, BATCH_SIZE), { ...options, batchSize: BATCH_SIZE });
  }
}

class SealingConsumer implements LogConsumer {
  readonly name = SEALER_NAME;
  private previous: Buffer = GENESIS;
  private lastSeal = { position: 0, at: 0 };

  constructor(
    private readonly pool: Pool,
    private readonly key: Buffer,
    /** A batch shorter than this reached the head of the log. */
    private readonly batchSize: number,
  ) {}

  async prepare(): Promise<number> {
    await this.pool.query('INSERT INTO projection_checkpoints (name) VALUES ($1) ON CONFLICT DO NOTHING', [this.name]);
    const { rows } = await this.pool.query<{ position: string; hash: Buffer | null; sealed: string | null }>(
      `SELECT c.position, (SELECT hash FROM es_chain WHERE position <= c.position ORDER BY position DESC LIMIT 1) AS hash,
              (SELECT max(position) FROM es_seals) AS sealed
         FROM projection_checkpoints c WHERE c.name = $1`,
      [this.name],
    );
    this.previous = rows[0]!.hash ?? GENESIS;
    this.lastSeal = { position: Number(rows[0]!.sealed ?? 0), at: 0 };
    return Number(rows[0]!.position);
  }

  async handle(checkpoint: number, events: RecordedEvent[]): Promise<number> {
    return this.extend(checkpoint, events[events.length - 1]!.position, events.length < this.batchSize);
  }

  /** A skip decision changes nothing here: the chain covers every stored row, applied or not. */
  skip(checkpoint: number, event: RecordedEvent): Promise<number> {
    return this.extend(checkpoint, event.position, false);
  }

  isTransient(error: unknown): boolean {
    return isTransientPostgresError(error);
  }

  /** Links every stored row in (from, to] (readAll has made that range final) and moves the checkpoint. */
  private async extend(from: number, to: number, atHead: boolean): Promise<number> {
    const previous = await withTransaction(this.pool, async (db) => {
      const { rows } = await db.query<ChainedRow>(
        `SELECT ${CHAINED_COLUMNS} FROM es_events WHERE position > $1 AND position <= $2 ORDER BY es_events.position`,
        [from, to],
      );
      let hash: Buffer = this.previous;
      const positions: string[] = [];
      const hashes: Buffer[] = [];
      for (const row of rows) {
        hash = link(hash, row);
        positions.push(row.position);
        hashes.push(hash);
      }
      if (rows.length > 0) {
        await db.query('INSERT INTO es_chain (position, hash) SELECT * FROM unnest($1::bigint[], $2::bytea[])', [positions, hashes]);
        const last = Number(positions[positions.length - 1]);
        if (last - this.lastSeal.position >= SEAL_EVERY_EVENTS || (atHead && Date.now() - this.lastSeal.at >= SEAL_AT_HEAD_EVERY_MS)) {
          await db.query('INSERT INTO es_seals (position, hash, signature) VALUES ($1, $2, $3)', [
            last,
            hash,
            signSeal(this.key, last, hash),
          ]);
          this.lastSeal = { position: last, at: Date.now() };
        }
      }
      const moved = await db.query(
        'UPDATE projection_checkpoints SET position = $2, updated_at = now() WHERE name = $1 AND position = $3',
        [this.name, to, from],
      );
      if (moved.rowCount === 0) throw new NotOwnerError('sealer checkpoint moved under us: another sealer is running');
      return hash;
    });
    this.previous = previous;
    return to;
  }
}
