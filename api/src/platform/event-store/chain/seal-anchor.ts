import type { ObjectStorage } from '../../storage/object-storage';
import type { Seal } from './log-chain';

/**
 * A seal's copy outside the database (issue 31 §3): one write-once object per seal in the
 * api's object store (MinIO in full mode, the data folder's objects in embedded mode). The
 * database's administrator can rewrite rows and delete seals but not these, so
 * `audit:verify --anchor` finds a seal deleted, changed or never anchored.
 */

/** Numbers padded so the keys list in seal order. */
export function anchorKey(log: string, seq: number): string {
  return `audit-seals/${log}/${String(seq).padStart(12, '0')}.json`;
}

interface AnchorBody {
  seq: number;
  position: number;
  hash: string;
  signature: string;
  format: number;
}

function bodyOf(seal: Seal): AnchorBody {
  return {
    seq: seal.seq,
    position: seal.position,
    hash: seal.hash.toString('hex'),
    signature: seal.signature.toString('hex'),
    format: seal.format,
  };
}

/** Whether an anchor says exactly what the database's seal says. */
export function anchorMatches(anchor: AnchorBody, seal: Seal): boolean {
  const expected = bodyOf(seal);
  return (Object.keys(expected) as (keyof AnchorBody)[]).every((k) => anchor[k] === expected[k]);
}

/**
 * Writes the seal's anchor once. One already there (a write whose bookkeeping did not commit)
 * is fine if it says the same; a different one is never replaced: the error says so.
 */
export async function writeAnchor(storage: ObjectStorage, log: string, seal: Seal): Promise<void> {
  const key = anchorKey(log, seal.seq);
  if (await storage.putOnce(key, Buffer.from(JSON.stringify(bodyOf(seal))))) return;
  const existing = await readAnchor(storage, log, seal.seq);
  if (!existing || !anchorMatches(existing, seal))
    throw new Error(`the object store already holds a different anchor for seal ${seal.seq} (${key}): left as it is`);
}

/** The anchor of seal number `seq`, or null when the store has none. */
export async function readAnchor(storage: ObjectStorage, log: string, seq: number): Promise<AnchorBody | null> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of await storage.read(anchorKey(log, seq))) chunks.push(chunk as Buffer);
  } catch (error) {
    if (['NoSuchKey', 'NotFound', 'ENOENT'].includes((error as { code?: string }).code ?? '')) return null;
    throw error;
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    const body = JSON.parse(text) as AnchorBody;
    return typeof body === 'object' && body !== null ? body : ({} as AnchorBody);
  } catch {
    // Unreadable is not the seal: the caller reports it as a different anchor.
    return {} as AnchorBody;
  }
}
