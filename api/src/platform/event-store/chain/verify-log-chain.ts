import type { Pool } from 'pg';
import { CHAINED_COLUMNS, type ChainedRow, GENESIS, link, sealIsValid } from './log-chain';

export interface ChainVerdict {
  /** The last chained position checked. */
  verifiedTo: number;
  events: number;
  /** The first position whose row, link or seal does not match; null when all do. */
  firstBroken: number | null;
  problem: string | null;
}

const BATCH = 10_000;

type Row = Partial<ChainedRow> & { chained_at: string; chain_hash: Buffer };

/**
 * Recomputes the chain from the first event over the rows as they are now and compares every
 * link with the stored one and every seal with its signature and link; also finds rows added
 * where the chain has none. Records the verdict (the console shows the last one).
 */
export async function verifyLogChain(pool: Pool, key: Buffer): Promise<ChainVerdict> {
  const verdict = await check(pool, key);
  await pool.query('INSERT INTO es_chain_verifications (verified_to, events, first_broken, problem) VALUES ($1, $2, $3, $4)', [
    verdict.verifiedTo,
    verdict.events,
    verdict.firstBroken,
    verdict.problem,
  ]);
  return verdict;
}

async function check(pool: Pool, key: Buffer): Promise<ChainVerdict> {
  const seals = await sealsByPosition(pool);
  let previous: Buffer = GENESIS;
  let after = 0;
  let events = 0;
  for (;;) {
    const { rows } = await pool.query<Row>(
      `SELECT c.position::text AS chained_at, c.hash AS chain_hash, e.* FROM es_chain c
         LEFT JOIN LATERAL (SELECT ${CHAINED_COLUMNS} FROM es_events WHERE es_events.position = c.position) e ON true
        WHERE c.position > $1 ORDER BY c.position LIMIT ${BATCH}`,
      [after],
    );
    for (const row of rows) {
      const position = Number(row.chained_at);
      const fail = (problem: string) => ({ verifiedTo: after, events, firstBroken: position, problem });
      if (row.position === undefined || row.position === null) return fail('the event is missing from the log');
      previous = link(previous, row as ChainedRow);
      if (!previous.equals(row.chain_hash)) return fail('the event does not match its link in the chain');
      const seal = seals.get(position);
      if (seal && (!seal.hash.equals(previous) || !sealIsValid(key, position, seal.hash, seal.signature)))
        return fail('a signed seal does not match the chain');
      events += 1;
      after = position;
    }
    if (rows.length < BATCH) break;
  }
  // A row inserted among chained ones has no link of its own.
  const { rows: added } = await pool.query<{ position: string | null }>(
    'SELECT min(e.position)::text AS position FROM es_events e WHERE e.position <= $1 AND NOT EXISTS (SELECT 1 FROM es_chain c WHERE c.position = e.position)',
    [after],
  );
  if (added[0]!.position)
    return {
      verifiedTo: after,
      events,
      firstBroken: Number(added[0]!.position),
      problem: 'an event was added without a link in the chain',
    };
  // Cutting the end off the log and the chain alike still leaves the seals past it.
  const beyond = [...seals.keys()].filter((p) => p > after).sort((a, b) => a - b)[0];
  if (beyond !== undefined)
    return { verifiedTo: after, events, firstBroken: after + 1, problem: `the chain ends before the seal at position ${beyond}` };
  return { verifiedTo: after, events, firstBroken: null, problem: null };
}

async function sealsByPosition(pool: Pool): Promise<Map<number, { hash: Buffer; signature: Buffer }>> {
  const { rows } = await pool.query<{ position: string; hash: Buffer; signature: Buffer }>(
    'SELECT position, hash, signature FROM es_seals',
  );
  return new Map(rows.map((r) => [Number(r.position), { hash: r.hash, signature: r.signature }]));
}
