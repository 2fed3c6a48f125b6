import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import type { Migration } from '../../platform/database/migrations';

export const entitlementRevisionMigrations: Migration[] = [
  {
    id: '0452-networks-entitlement-revisions',
    sql: `-- Each device's document as last issued: its content's hash, its seq, and the read models'
          -- position its inputs were read at.
          CREATE TABLE networks_entitlement_revisions (
            device_id text PRIMARY KEY,
            content_sha256 text NOT NULL,
            seq bigint NOT NULL,
            position bigint NOT NULL
          );`,
  },
];

/** A document about to be issued: its device, what a host would notice of it, and the position its inputs were read at. */
export interface RevisionCandidate {
  deviceId: string;
  content: string;
  position: number;
}

/**
 * A document's `seq` rises when, and only when, the device's document changes content. Read
 * models move with every event in the log, most of them nobody else's, so their position alone
 * gave a host a new seq (and a resent document) for nothing after every reconnect.
 *
 * Each device's last issued content is remembered by hash, with the read models' position its
 * inputs were read at. The same content keeps its seq. New content read at that position or
 * later takes a new seq: the position, or the last seq plus one when the read models it is made
 * from have not all moved past it. New content read at an earlier position than the last issued
 * one is older than it: it gets no seq, and the caller reads again (positions only rise, so a
 * second read is at least as new).
 *
 * Not business history (the log has the changes; this only numbers their outcome per device),
 * so it lives beside the log like the device grant's limits, shared by every api instance, one
 * statement per batch. Lost, it costs each host one resent document.
 */
export class EntitlementRevisions {
  constructor(private readonly pool: Pool) {}

  /** The seq of each candidate in their order, or null for one read before the document last issued. */
  async seqsOf(candidates: readonly RevisionCandidate[]): Promise<(number | null)[]> {
    // One row per device (a host may hold two streams, with one document), in one order, so
    // concurrent batches lock their rows in the same order and cannot deadlock.
    const rows = [...new Map(candidates.map((c) => [c.deviceId, c])).values()].sort((a, b) => (a.deviceId < b.deviceId ? -1 : 1));
    const { rows: issued } = await this.pool.query<{ device_id: string; seq: string }>(
      `INSERT INTO networks_entitlement_revisions AS r (device_id, content_sha256, seq, position)
         SELECT device_id, content_sha256, position, position
           FROM unnest($1::text[], $2::text[], $3::bigint[]) AS i(device_id, content_sha256, position)
       ON CONFLICT (device_id) DO UPDATE SET
         seq = CASE WHEN r.content_sha256 = excluded.content_sha256 THEN r.seq ELSE greatest(excluded.seq, r.seq + 1) END,
         content_sha256 = excluded.content_sha256,
         position = greatest(r.position, excluded.position)
       WHERE r.content_sha256 = excluded.content_sha256 OR r.position <= excluded.position
       RETURNING device_id, seq`,
      [rows.map((c) => c.deviceId), rows.map((c) => sha256(c.content)), rows.map((c) => c.position)],
    );
    const seqs = new Map(issued.map((row) => [row.device_id, Number(row.seq)]));
    return candidates.map((c) => seqs.get(c.deviceId) ?? null);
  }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');
