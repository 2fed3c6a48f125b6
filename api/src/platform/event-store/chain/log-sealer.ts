import type { Pool, PoolClient } from 'pg';
import type { RecordedEvent } from '@meshwork/contracts';
import { withTransaction } from '../../database/transaction';
import type { Logger } from '../../logging/logger';
import type { ObjectStorage } from '../../storage/object-storage';
import type { EventStore } from '../event-store.port';
import { ExclusiveFollower, type FollowerOptions, type LogConsumer, NotOwnerError } from '../../projections/exclusive-follower';
import { isTransientPostgresError } from '../../projections/retry-policy';
import { CHAINED_COLUMNS, type ChainedRow, GENESIS, link, logId, type Seal, signSeal } from './log-chain';
import { writeAnchor } from './seal-anchor';

export const SEALER_NAME = 'log_sealer';

const BATCH_SIZE = 2000;

/**
 * A seal at least every SEAL_EVERY_EVENTS events and, once anything is unsealed, within
 * SEAL_EVERY_MS even if the log then goes quiet. The time bounds how long the newest events
 * go without an anchored seal, the window in which a database administrator could still
 * rewrite or cut them unnoticed; 5 s keeps that short while a busy log makes at most 17,280
 * seal objects a day (a few MB). The count bounds a burst's unsealed events and the re-hashing
 * between two seals: one anchor write per thousand events is under 1% of the sealer's work.
 */
export const SEAL_EVERY_EVENTS = 1000;
export const SEAL_EVERY_MS = 5_000;

export interface SealerOptions extends FollowerOptions {
  /** Where seals are anchored (the api's object storage). */
  anchors: ObjectStorage;
}

/**
 * Follows the log like a projection (one process at a time, holes waited out by readAll) and
 * extends the hash chain over each batch in one transaction with its checkpoint and seals;
 * seals the idle tail when the log goes quiet; then anchors each seal in the object store.
 * Writers never wait for it.
 */
export class LogSealer extends ExclusiveFollower {
  constructor(pool: Pool, store: EventStore, key: Buffer, options: SealerOptions) {
    super(pool, store, new SealingConsumer(pool, key, BATCH_SIZE, options.anchors, options.logger), { ...options, batchSize: BATCH_SIZE });
  }
}

class SealingConsumer implements LogConsumer {
  readonly name = SEALER_NAME;
  private log = '';
  /** The chain's last link and its position. */
  private previous: Buffer = GENESIS;
  private chainedTo = 0;
  /** The last seal: its number and signature (the next one chains to it), and when it was made. */
  private lastSeal: { seq: number; signature: Buffer; at: number } = { seq: 0, signature: GENESIS, at: 0 };
  /** Links made since the last seal. */
  private unsealed = 0;
  /** Seals may be waiting for their anchor (a store that was down, a process that stopped). */
  private anchorsPending = true;

  constructor(
    private readonly pool: Pool,
    private readonly key: Buffer,
    /** A batch shorter than this reached the head of the log. */
    private readonly batchSize: number,
    private readonly anchors: ObjectStorage,
    private readonly logger?: Logger,
  ) {}

  async prepare(): Promise<number> {
    await this.pool.query('INSERT INTO projection_checkpoints (name) VALUES ($1) ON CONFLICT DO NOTHING', [this.name]);
    this.log = await logId(this.pool);
    const { rows } = await this.pool.query<{
      position: string;
      chained_to: string | null;
      hash: Buffer | null;
      seq: string | null;
      signature: Buffer | null;
      sealed_to: string | null;
    }>(
      `SELECT c.position, l.position AS chained_to, l.hash, s.seq, s.signature, s.position AS sealed_to
         FROM projection_checkpoints c
         LEFT JOIN LATERAL (SELECT position, hash FROM es_chain WHERE position <= c.position ORDER BY position DESC LIMIT 1) l ON true
         LEFT JOIN LATERAL (SELECT seq, signature, position FROM es_seals ORDER BY seq DESC LIMIT 1) s ON true
        WHERE c.name = $1`,
      [this.name],
    );
    const row = rows[0]!;
    this.previous = row.hash ?? GENESIS;
    this.chainedTo = Number(row.chained_to ?? 0);
    this.lastSeal = { seq: Number(row.seq ?? 0), signature: row.signature ?? GENESIS, at: 0 };
    const sealedTo = Number(row.sealed_to ?? 0);
    this.unsealed = Number(
      (await this.pool.query<{ n: string }>('SELECT count(*) AS n FROM es_chain WHERE position > $1', [sealedTo])).rows[0]!.n,
    );
    this.anchorsPending = true;
    await this.anchorPending();
    return Number(row.position);
  }

  async handle(checkpoint: number, events: RecordedEvent[]): Promise<number> {
    return this.extend(checkpoint, events[events.length - 1]!.position, events.length < this.batchSize);
  }

  /** A skip decision changes nothing here: the chain covers every stored row, applied or not. */
  skip(checkpoint: number, event: RecordedEvent): Promise<number> {
    return this.extend(checkpoint, event.position, false);
  }

  /** The log went quiet: a tail left unsealed for SEAL_EVERY_MS is sealed now, so it never waits for new activity. */
  async idle(checkpoint: number): Promise<void> {
    if (this.unsealed > 0 && this.sealDue()) {
      await this.atomically(async (db) => {
        const { rows } = await db.query<{ position: string }>('SELECT position FROM projection_checkpoints WHERE name = $1 FOR UPDATE', [
          this.name,
        ]);
        if (Number(rows[0]?.position) !== checkpoint)
          throw new NotOwnerError('sealer checkpoint moved under us: another sealer is running');
        this.unsealed = 0;
        await this.seal(db, this.chainedTo, this.previous);
      });
    }
    await this.anchorPending();
  }

  isTransient(error: unknown): boolean {
    return isTransientPostgresError(error);
  }

  private sealDue(): boolean {
    return Date.now() - this.lastSeal.at >= SEAL_EVERY_MS;
  }

  /** Links every stored row in (from, to] (readAll has made that range final), seals as due, and moves the checkpoint. */
  private async extend(from: number, to: number, atHead: boolean): Promise<number> {
    await this.atomically(async (db) => {
      const { rows } = await db.query<ChainedRow>(
        `SELECT ${CHAINED_COLUMNS} FROM es_events WHERE position > $1 AND position <= $2 ORDER BY es_events.position`,
        [from, to],
      );
      const positions: string[] = [];
      const hashes: Buffer[] = [];
      const seals: [number, Buffer][] = [];
      for (const row of rows) {
        this.previous = link(this.previous, row);
        this.chainedTo = Number(row.position);
        positions.push(row.position);
        hashes.push(this.previous);
        this.unsealed += 1;
        if (this.unsealed >= SEAL_EVERY_EVENTS) seals.push(this.markSealed());
      }
      if (this.unsealed > 0 && atHead && this.sealDue()) seals.push(this.markSealed());
      if (rows.length > 0)
        await db.query('INSERT INTO es_chain (position, hash) SELECT * FROM unnest($1::bigint[], $2::bytea[])', [positions, hashes]);
      // Seals after their links, in number order.
      for (const [position, hash] of seals) await this.seal(db, position, hash);
      const moved = await db.query(
        'UPDATE projection_checkpoints SET position = $2, updated_at = now() WHERE name = $1 AND position = $3',
        [this.name, to, from],
      );
      if (moved.rowCount === 0) throw new NotOwnerError('sealer checkpoint moved under us: another sealer is running');
    });
    await this.anchorPending();
    return to;
  }

  /** One transaction; if it fails nothing was stored, so the chain and seal state go back to what they were. */
  private async atomically(work: (db: PoolClient) => Promise<void>): Promise<void> {
    const before = { previous: this.previous, chainedTo: this.chainedTo, lastSeal: this.lastSeal, unsealed: this.unsealed };
    try {
      await withTransaction(this.pool, work);
    } catch (error) {
      Object.assign(this, before);
      throw error;
    }
  }

  /** Notes a seal due at the current link (written by `seal` once the links are in). */
  private markSealed(): [number, Buffer] {
    this.unsealed = 0;
    return [this.chainedTo, this.previous];
  }

  /** Signs and stores the next seal, chained to the last one. */
  private async seal(db: PoolClient, position: number, hash: Buffer): Promise<void> {
    const seq = this.lastSeal.seq + 1;
    const signature = signSeal(this.key, seq, position, hash, this.lastSeal.signature);
    await db.query('INSERT INTO es_seals (seq, position, hash, signature, format) VALUES ($1, $2, $3, $4, 2)', [
      seq,
      position,
      hash,
      signature,
    ]);
    this.lastSeal = { seq, signature, at: Date.now() };
    this.anchorsPending = true;
  }

  /**
   * Writes the anchors of seals that have none yet, in number order, after their seals have
   * committed (an anchor never names a seal the database did not keep). A store that is down
   * is retried on the next batch or idle turn; the chain goes on meanwhile.
   */
  private async anchorPending(): Promise<void> {
    if (!this.anchorsPending) return;
    try {
      for (;;) {
        const { rows } = await this.pool.query<{ seq: string; position: string; hash: Buffer; signature: Buffer; format: number }>(
          'SELECT seq, position, hash, signature, format FROM es_seals WHERE NOT anchored ORDER BY seq LIMIT 100',
        );
        for (const r of rows) {
          const seal: Seal = { seq: Number(r.seq), position: Number(r.position), hash: r.hash, signature: r.signature, format: r.format };
          await writeAnchor(this.anchors, this.log, seal);
          await this.pool.query('UPDATE es_seals SET anchored = true WHERE seq = $1', [seal.seq]);
        }
        if (rows.length < 100) break;
      }
      this.anchorsPending = false;
    } catch (error) {
      this.logger?.error({ err: error }, 'could not anchor the event log’s seals in the object store; retrying');
    }
  }
}
