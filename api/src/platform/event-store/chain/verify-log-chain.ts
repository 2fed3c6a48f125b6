import type { Pool } from 'pg';
import type { ObjectStorage } from '../../storage/object-storage';
import { CHAINED_COLUMNS, type ChainedRow, GENESIS, link, logId, type Seal, sealIsValid, sealsInOrder } from './log-chain';
import { anchorMatches, readAnchor } from './seal-anchor';

export interface ChainVerdict {
  /** The last chained position checked. */
  verifiedTo: number;
  events: number;
  /** The first position whose row, link or seal does not match; null when all do. */
  firstBroken: number | null;
  problem: string | null;
}

const BATCH = 10_000;

export interface VerifyOptions {
  /** Also check every seal against its anchor in this object store (`audit:verify --anchor`). */
  anchors?: ObjectStorage;
}

/**
 * Recomputes the chain from the first event over the rows as they are now and compares every
 * link with the stored one and every seal with its signature and link; also finds rows added
 * where the chain has none, a seal missing from the numbered sequence, and a chain that ends
 * before the last seal (by the database's or, with `anchors`, by the object store's). Records
 * the verdict (the console shows the last one).
 */
export async function verifyLogChain(pool: Pool, key: Buffer, options: VerifyOptions = {}): Promise<ChainVerdict> {
  const verdict = await check(pool, key, options);
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

/** The first thing wrong with the seals themselves: everything from `from` on is unproven. */
interface SealProblem {
  from: number;
  problem: string;
}

async function check(pool: Pool, key: Buffer, options: VerifyOptions): Promise<ChainVerdict> {
  const seals = await sealsInOrder(pool);
  const sealProblem = checkSequence(key, seals) ?? (options.anchors ? await checkAnchors(pool, options.anchors, seals) : null);
  const sealAt = new Map(seals.map((s) => [s.position, s]));
  let previous: Buffer = GENESIS;
  let after = 0;
  let events = 0;
  for await (const batch of batches(pool)) {
    let e = 0;
    for (const chained of batch.links) {
      const fail = (position: number, problem: string): ChainVerdict => ({ verifiedTo: after, events, firstBroken: position, problem });
      if (sealProblem && chained.position >= sealProblem.from) return fail(sealProblem.from, sealProblem.problem);
      const row = batch.events[e];
      const position = row ? Number(row.position) : Infinity;
      // A row inserted among chained ones has no link of its own.
      if (position < chained.position) return fail(position, 'an event was added without a link in the chain');
      if (position > chained.position) return fail(chained.position, 'the event is missing from the log');
      e += 1;
      previous = link(previous, row!);
      if (!previous.equals(chained.hash)) return fail(position, 'the event does not match its link in the chain');
      const seal = sealAt.get(position);
      if (seal && !seal.hash.equals(previous)) return fail(position, 'a signed seal does not match the chain');
      events += 1;
      after = position;
    }
  }
  if (sealProblem) return { verifiedTo: after, events, firstBroken: sealProblem.from, problem: sealProblem.problem };
  // Cutting the end off the log and the chain alike still leaves the seals past it.
  const last = seals[seals.length - 1];
  if (last && last.position > after)
    return {
      verifiedTo: after,
      events,
      firstBroken: after + 1,
      problem: `the chain ends before seal ${last.seq} at position ${last.position}`,
    };
  return { verifiedTo: after, events, firstBroken: null, problem: null };
}

/** Seals numbered 1, 2, 3… without a gap, each further on than the last, each signed and chained to the one before. */
function checkSequence(key: Buffer, seals: Seal[]): SealProblem | null {
  let previous: Seal | null = null;
  for (const [i, seal] of seals.entries()) {
    const from = (previous?.position ?? 0) + 1;
    if (seal.seq !== i + 1) return { from, problem: `seal ${i + 1} is missing: the seals go from ${i} to ${seal.seq}` };
    if (seal.position < from) return { from, problem: `seal ${seal.seq} does not cover a later position than the seal before` };
    if ((previous && seal.format < previous.format) || !sealIsValid(key, seal, previous?.signature ?? GENESIS))
      return { from, problem: `seal ${seal.seq} is not signed by this log or not chained to the seal before` };
    previous = seal;
  }
  return null;
}

/** Anchors read at once, a bounded number in flight. */
const ANCHOR_READS = 16;

/**
 * Every seal against its anchor, and the anchor after the last seal: one there means seals
 * were deleted from the end. Reads run ANCHOR_READS at a time; the first problem in seal order wins.
 */
async function checkAnchors(pool: Pool, storage: ObjectStorage, seals: Seal[]): Promise<SealProblem | null> {
  const log = await logId(pool);
  const from = (i: number) => (i > 0 ? seals[i - 1]!.position + 1 : 1);
  for (let start = 0; start < seals.length; start += ANCHOR_READS) {
    const slice = seals.slice(start, start + ANCHOR_READS);
    const anchors = await Promise.all(slice.map((seal) => readAnchor(storage, log, seal.seq)));
    for (const [j, anchor] of anchors.entries()) {
      const seal = slice[j]!;
      if (!anchor)
        return { from: from(start + j), problem: `seal ${seal.seq} has no anchor in the object store (not written yet, or removed)` };
      if (!anchorMatches(anchor, seal))
        return { from: from(start + j), problem: `seal ${seal.seq} differs from its anchor in the object store` };
    }
  }
  const next = await readAnchor(storage, log, seals.length + 1);
  if (next)
    return {
      from: from(seals.length),
      problem: `seal ${seals.length + 1} (up to position ${String(next.position)}) is anchored in the object store but gone from the database`,
    };
  return null;
}
