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

interface Batch {
  links: { position: number; hash: Buffer }[];
  events: ChainedRow[];
}

/** Batches whose events are read while earlier ones are hashed: PostgreSQL renders rows on one core, the hashing runs on another. */
const AHEAD = 2;

/**
 * The links in order, in batches, each with every event up to its last link: two range scans
 * paired up by the caller. The links (small rows) are read first; each batch's events are then
 * asked for at once, up to AHEAD batches in flight.
 */
async function* batches(pool: Pool): AsyncGenerator<Batch> {
  const inFlight: Promise<Batch>[] = [];
  let after = 0;
  let more = true;
  for (;;) {
    while (more && inFlight.length < AHEAD) {
      const { rows } = await pool.query<{ position: string; hash: Buffer }>(
        `SELECT position::text, hash FROM es_chain WHERE position > $1 ORDER BY es_chain.position LIMIT ${BATCH}`,
        [after],
      );
      more = rows.length === BATCH;
      if (rows.length === 0) break;
      const links = rows.map((l) => ({ position: Number(l.position), hash: l.hash }));
      const from = after;
      after = links[links.length - 1]!.position;
      const batch = pool
        .query<ChainedRow>(
          `SELECT ${CHAINED_COLUMNS} FROM es_events WHERE es_events.position > $1 AND es_events.position <= $2 ORDER BY es_events.position`,
          [from, after],
        )
        .then(({ rows: events }) => ({ links, events }));
      // Handled here too, so a verdict found before a batch is awaited leaves no unhandled rejection.
      batch.catch(() => undefined);
      inFlight.push(batch);
    }
    const next = inFlight.shift();
    if (!next) return;
    yield await next;
  }
}

async function check(pool: Pool, key: Buffer): Promise<ChainVerdict> {
  const seals = await sealsByPosition(pool);
  let previous: Buffer = GENESIS;
  let after = 0;
  let events = 0;
  for await (const batch of batches(pool)) {
    let e = 0;
    for (const chained of batch.links) {
      const fail = (position: number, problem: string): ChainVerdict => ({ verifiedTo: after, events, firstBroken: position, problem });
      const row = batch.events[e];
      const position = row ? Number(row.position) : Infinity;
      // A row inserted among chained ones has no link of its own.
      if (position < chained.position) return fail(position, 'an event was added without a link in the chain');
      if (position > chained.position) return fail(chained.position, 'the event is missing from the log');
      e += 1;
      previous = link(previous, row!);
      if (!previous.equals(chained.hash)) return fail(position, 'the event does not match its link in the chain');
      const seal = seals.get(position);
      if (seal && (!seal.hash.equals(previous) || !sealIsValid(key, position, seal.hash, seal.signature)))
        return fail(position, 'a signed seal does not match the chain');
      events += 1;
      after = position;
    }
  }
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
