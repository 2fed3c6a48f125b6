import { createHash, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { Pool } from 'pg';
import type { Migration } from '../../database/migrations';

/**
 * The log's hash chain (issue 15 §3). Each event's link is
 *   hash(n) = SHA-256(hash(previous event) || canonical content of event n)
 * over the row exactly as stored, personal fields still encrypted, so erasing an account
 * (destroying its key) leaves the chain intact. A sealer computes the links in position
 * order behind the appends (writers never wait for it) and signs a checkpoint now and then
 * with a key the database does not hold: whoever rewrites a row and recomputes the links
 * after it still cannot sign the new hashes, and `audit:verify` names where they part.
 *
 * Seals are numbered (issue 31 §3): each one's signature covers its number, its position, its
 * link and the previous seal's signature, so deleting one leaves a gap or a broken successor.
 * Each is also written once to the object store (seal-anchor.ts), where the database's
 * administrator cannot delete the newest ones unnoticed. Seals made before 0011 are format 1
 * (position and link only) and keep being checked that way.
 */
export const logChainMigrations: Migration[] = [
  {
    id: '0010-event-log-chain',
    sql: `
CREATE TABLE es_chain (position bigint PRIMARY KEY, hash bytea NOT NULL);
CREATE TABLE es_seals (position bigint PRIMARY KEY, hash bytea NOT NULL, signature bytea NOT NULL, sealed_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE es_chain_verifications (
  id bigserial PRIMARY KEY,
  verified_to bigint NOT NULL,
  events bigint NOT NULL,
  first_broken bigint,
  problem text,
  finished_at timestamptz NOT NULL DEFAULT now()
);`,
  },
  {
    id: '0011-event-log-seal-sequence',
    sql: `
CREATE TABLE es_log_identity (id uuid NOT NULL DEFAULT gen_random_uuid(), single boolean PRIMARY KEY DEFAULT true CHECK (single));
ALTER TABLE es_seals ADD COLUMN seq bigint, ADD COLUMN format smallint NOT NULL DEFAULT 1, ADD COLUMN anchored boolean NOT NULL DEFAULT false;
UPDATE es_seals s SET seq = n.seq FROM (SELECT position, row_number() OVER (ORDER BY position) AS seq FROM es_seals) n WHERE s.position = n.position;
ALTER TABLE es_seals ALTER COLUMN seq SET NOT NULL, ADD CONSTRAINT es_seals_seq_key UNIQUE (seq), ALTER COLUMN format SET DEFAULT 2;
CREATE INDEX es_seals_unanchored ON es_seals (seq) WHERE NOT anchored;`,
  },
];

/** The link before the first event. */
export const GENESIS = Buffer.alloc(32);

/**
 * The columns a link covers, as text PostgreSQL renders the same way every time (jsonb's text is
 * canonical). `position` is text here: order such rows by `es_events.position`, never by the alias.
 */
export const CHAINED_COLUMNS = `position::text AS position, event_id::text AS event_id, stream_id, stream_version, type, schema_version,
  (extract(epoch FROM occurred_at) * 1000000)::bigint::text AS occurred_us, (extract(epoch FROM recorded_at) * 1000000)::bigint::text AS recorded_us,
  data::text AS data, metadata::text AS metadata`;

/** A CHAINED_COLUMNS row of es_events: the event log's own table, not a read model, so no entity (see read-side.ts). */
export interface ChainedRow {
  position: string;
  event_id: string;
  stream_id: string;
  stream_version: number;
  type: string;
  schema_version: number;
  occurred_us: string;
  recorded_us: string;
  data: string;
  metadata: string;
}

/** The next link: the previous one and the row's columns, as a JSON array so no two rows read alike. */
export function link(previous: Buffer, row: ChainedRow): Buffer {
  const content = JSON.stringify([
    row.position,
    row.event_id,
    row.stream_id,
    row.stream_version,
    row.type,
    row.schema_version,
    row.occurred_us,
    row.recorded_us,
    row.data,
    row.metadata,
  ]);
  return createHash('sha256').update(previous).update(content).digest();
}

/** The seal key, derived from the data encryption key (never stored in the database). */
export function sealKey(dataEncryptionKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', dataEncryptionKey, Buffer.alloc(0), 'meshwork event log seal', 32));
}

/** A signed checkpoint: the chain's link at `position`, the `seq`th seal of the log. */
export interface Seal {
  seq: number;
  position: number;
  hash: Buffer;
  signature: Buffer;
  /** 1: made before seals were numbered (signs position and link only); 2: numbered and chained. */
  format: number;
}

/** The signature of seal number `seq`, chained to the one before (GENESIS before the first). */
export function signSeal(key: Buffer, seq: number, position: number, hash: Buffer, previousSignature: Buffer): Buffer {
  return createHmac('sha256', key).update(`seal 2:${seq}:${position}:`).update(hash).update(previousSignature).digest();
}

export function sealIsValid(key: Buffer, seal: Seal, previousSignature: Buffer): boolean {
  const expected =
    seal.format === 1
      ? createHmac('sha256', key).update(`${seal.position}:`).update(seal.hash).digest()
      : signSeal(key, seal.seq, seal.position, seal.hash, previousSignature);
  return seal.signature.length === expected.length && timingSafeEqual(seal.signature, expected);
}

/** Every seal in number order (a few per thousand events, so the verifier holds them all). */
export async function sealsInOrder(pool: Pool): Promise<Seal[]> {
  const { rows } = await pool.query<{ seq: string; position: string; hash: Buffer; signature: Buffer; format: number }>(
    'SELECT seq, position, hash, signature, format FROM es_seals ORDER BY seq',
  );
  return rows.map((r) => ({ seq: Number(r.seq), position: Number(r.position), hash: r.hash, signature: r.signature, format: r.format }));
}

/**
 * The log's own id: where its seals' anchors live in a store other logs (other databases) may
 * share. Drawn on first use, not by the migration, so databases copied from one migrated
 * template (as tests make them) each get their own.
 */
export async function logId(pool: Pool): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    `WITH made AS (INSERT INTO es_log_identity DEFAULT VALUES ON CONFLICT DO NOTHING RETURNING id)
     SELECT id FROM made UNION ALL SELECT id FROM es_log_identity`,
  );
  // Made by a concurrent first use that this statement's snapshot did not see: it is committed now.
  return rows[0]?.id ?? (await pool.query<{ id: string }>('SELECT id FROM es_log_identity')).rows[0]!.id;
}
