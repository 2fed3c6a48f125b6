import type { Pool } from 'pg';

export interface ProjectionLag {
  name: string;
  position: number;
  head: number;
  /** Positions between the checkpoint and the head of the log. */
  positionsBehind: number;
  /** How long the oldest event not yet applied has been waiting; 0 when caught up. */
  millisecondsBehind: number;
}

/**
 * Lag of the named log consumers (projections, the relay), read from the database so any
 * process can report it (the api in embedded mode, or separate workers in full mode). A
 * consumer that has not started yet is reported at position 0.
 */
export async function projectionLag(pool: Pool, names: readonly string[]): Promise<ProjectionLag[]> {
  const { rows } = await pool.query<{ name: string; position: string; head: string; ms_behind: number | null }>(
    `
    WITH h AS (SELECT coalesce(max(position), 0) AS head FROM es_events),
         c AS (SELECT n.name, coalesce(p.position, 0) AS position
                 FROM unnest($1::text[]) AS n(name) LEFT JOIN projection_checkpoints p ON p.name = n.name)
    SELECT c.name, c.position, h.head,
           (SELECT extract(epoch FROM now() - e.recorded_at) * 1000
              FROM es_events e WHERE e.position > c.position ORDER BY e.position LIMIT 1) AS ms_behind
      FROM c, h
     ORDER BY c.name`,
    [names],
  );
  return rows.map((r) => ({
    name: r.name,
    position: Number(r.position),
    head: Number(r.head),
    positionsBehind: Math.max(0, Number(r.head) - Number(r.position)),
    millisecondsBehind: Math.max(0, Math.round(Number(r.ms_behind ?? 0))),
  }));
}
