import type { Pool } from 'pg';

/**
 * Read-your-writes for a command that answers with read-model data: wait until the
 * projection has applied the command's last event. Projections follow the log within
 * milliseconds, so this is short; the deadline keeps a stalled runner from hanging requests.
 */
export async function waitForProjection(pool: Pool, projection: string, position: number, timeoutMs = 5_000): Promise<boolean> {
  if (position <= 0) return true;
  const deadline = Date.now() + timeoutMs;
  for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
    const { rows } = await pool.query<{ position: string }>('SELECT position FROM projection_checkpoints WHERE name = $1', [projection]);
    if (Number(rows[0]?.position ?? 0) >= position) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, pause));
  }
}
