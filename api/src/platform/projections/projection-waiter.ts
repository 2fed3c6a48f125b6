import type { Pool } from 'pg';
import { logger } from '../logging/logger';

/**
 * How long a command waits for the read models to include its write. The write is committed
 * and the answer must show it, so this is generous: it bounds a stalled or stopped runner,
 * not a busy one (a busy machine can keep a projection seconds behind).
 */
export const READ_YOUR_WRITES_MS = 30_000;

/**
 * Waits until `projection` has applied the event at `position`: true then, false when
 * `timeoutMs` passed first. Projections follow the log within milliseconds, so this is
 * usually short. The caller decides what a false means.
 */
export async function waitForProjection(
  pool: Pool,
  projection: string,
  position: number,
  timeoutMs = READ_YOUR_WRITES_MS,
): Promise<boolean> {
  if (position <= 0) return true;
  const deadline = Date.now() + timeoutMs;
  for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
    const { rows } = await pool.query<{ position: string }>('SELECT position FROM projection_checkpoints WHERE name = $1', [projection]);
    if (Number(rows[0]?.position ?? 0) >= position) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, pause));
  }
}

/**
 * Read-your-writes for a command that answers with read-model data: waits until each of
 * `projections` has applied the command's last event, at `position`. It never fails the
 * command (its write is committed): a read model that is stalled on an event up to
 * `position` (it will not move until staff act, so waiting is pointless) or still behind
 * after READ_YOUR_WRITES_MS is logged as a warning naming it, and the answer may be stale.
 */
export async function readYourWrites(pool: Pool, projections: readonly string[], position: number): Promise<void> {
  if (position <= 0) return;
  const deadline = Date.now() + READ_YOUR_WRITES_MS;
  for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
    const behind = await projectionsBehind(pool, projections, position);
    const timedOut = Date.now() >= deadline;
    if (timedOut || behind.every((b) => b.stalled)) {
      for (const { name, checkpoint, stalled } of behind) {
        logger.warn(
          { projection: name, position, checkpoint, stalled },
          stalled
            ? 'read model is stalled before this write; answering without it'
            : `read model did not reach this write within ${READ_YOUR_WRITES_MS} ms; answering without it`,
        );
      }
      return;
    }
    await new Promise((r) => setTimeout(r, pause));
  }
}

/** Those of `projections` whose checkpoint is before `position`, and whether each is stalled on an event up to it. */
async function projectionsBehind(
  pool: Pool,
  projections: readonly string[],
  position: number,
): Promise<{ name: string; checkpoint: number; stalled: boolean }[]> {
  const { rows } = await pool.query<{ name: string; checkpoint: string; stalled: boolean }>(
    `SELECT n.name, coalesce(c.position, 0) AS checkpoint,
            EXISTS (SELECT 1 FROM projection_failures f
                     WHERE f.name = n.name AND f.state = 'stalled' AND f.position > coalesce(c.position, 0) AND f.position <= $2) AS stalled
       FROM unnest($1::text[]) AS n(name) LEFT JOIN projection_checkpoints c ON c.name = n.name
      WHERE coalesce(c.position, 0) < $2`,
    [projections, position],
  );
  return rows.map((r) => ({ name: r.name, checkpoint: Number(r.checkpoint), stalled: r.stalled }));
}
