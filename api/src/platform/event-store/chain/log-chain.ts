import { createHash, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { Migration } from '../../database/migrations';

/**
 * The log's hash chain (issue 15 §3). Each event's link is
 *   hash(n) = SHA-256(hash(previous event) || canonical content of event n)
 * over the row exactly as stored, personal fields still encrypted, so erasing an account
 * (destroying its key) leaves the chain intact. A sealer computes the links in position
 * order behind the appends (writers never wait for it) and signs a checkpoint now and then
 * with a key the database does not hold: whoever rewrites a row and recomputes the links
 * after it still cannot sign the new hashes, and `audit:verify` names where they part.
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

export function signSeal(key: Buffer, position: number, hash: Buffer): Buffer {
  return createHmac('sha256', key).update(`${position}:`).update(hash).digest();
}

export function sealIsValid(key: Buffer, position: number, hash: Buffer, signature: Buffer): boolean {
  const expected = signSeal(key, position, hash);
  return signature.length === expected.length && timingSafeEqual(signature, expected);
}
