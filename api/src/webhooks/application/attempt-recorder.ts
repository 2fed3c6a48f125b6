import type { Pool } from 'pg';

/** One delivery's attempt as it ended (attempted false: closed unsent, the endpoint gone or off). */
export interface AttemptRecord {
  id: string;
  endpoint_id: string;
  status: 'succeeded' | 'failed' | 'retrying';
  attempt: number;
  attempted: boolean;
  response_status: number | null;
  latency_ms: number | null;
  error: string | null;
  excerpt: string | null;
  retry_secs: number;
}

/** An endpoint's failed attempts in a row since its last success, as counted after a batch. */
export interface FailureCount {
  consecutive: number;
  since: Date;
}

/** Most attempts written in one statement. */
const BATCH = 200;

/**
 * Writes attempts in batches: whatever ended while the previous batch was written goes in the
 * next, so a hundred deliveries in flight do not queue for a hundred connections the
 * projections also need: one connection at a time, whatever the load. Each caller's promise
 * settles with its batch, with its endpoint's failure count when the attempt failed.
 */
export class AttemptRecorder {
  private queue: { record: AttemptRecord; done: (error: unknown, failures?: FailureCount) => void }[] = [];
  private running = false;

  constructor(private readonly pool: Pool) {}

  record(record: AttemptRecord): Promise<FailureCount | undefined> {
    return new Promise((resolve, reject) => {
      this.queue.push({ record, done: (error, failures) => (error ? reject(error as Error) : resolve(failures)) });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, BATCH);
      try {
        const records = batch.map((b) => b.record);
        await this.write(records);
        const failures = await this.countFailures(records);
        for (const b of batch) b.done(null, b.record.status === 'succeeded' ? undefined : failures.get(b.record.endpoint_id));
      } catch (error) {
        for (const b of batch) b.done(error);
      }
    }
    this.running = false;
  }

  /**
   * Adds each endpoint's failed attempts after its last success in the batch (a success in
   * it has already reset the count, in write); answers the counts, by endpoint.
   */
  private async countFailures(records: AttemptRecord[]): Promise<Map<string, FailureCount>> {
    const failed = new Map<string, number>();
    for (const r of records) {
      if (r.status === 'succeeded') failed.delete(r.endpoint_id);
      else if (r.attempted) failed.set(r.endpoint_id, (failed.get(r.endpoint_id) ?? 0) + 1);
    }
    if (failed.size === 0) return new Map();
    const { rows } = await this.pool.query<FailureCount & { endpoint_id: string }>(
      `INSERT INTO webhook_endpoint_failures (endpoint_id, consecutive, since)
       SELECT endpoint_id, n, now() FROM unnest($1::uuid[], $2::int[]) AS v(endpoint_id, n)
       ON CONFLICT (endpoint_id) DO UPDATE SET consecutive = webhook_endpoint_failures.consecutive + excluded.consecutive
       RETURNING endpoint_id, consecutive, since`,
      [[...failed.keys()], [...failed.values()]],
    );
    return new Map(rows.map(({ endpoint_id, consecutive, since }) => [endpoint_id, { consecutive, since }]));
  }

  private async write(records: AttemptRecord[]): Promise<void> {
    await this.pool.query(
      `WITH v AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS v(id uuid, endpoint_id uuid, status text, attempt int, attempted boolean,
           response_status int, latency_ms int, error text, excerpt text, retry_secs float8)
       ), attempt AS (
         INSERT INTO webhook_delivery_attempts (delivery_id, attempt, at, response_status, latency_ms, error)
         SELECT id, attempt, now(), response_status, latency_ms, error FROM v WHERE attempted ON CONFLICT DO NOTHING
       ), success AS (
         DELETE FROM webhook_endpoint_failures f USING v WHERE f.endpoint_id = v.endpoint_id AND v.status = 'succeeded'
       )
       UPDATE webhook_deliveries d
          SET status = v.status, attempts = v.attempt, lease_until = NULL,
              response_status = coalesce(v.response_status, d.response_status), latency_ms = coalesce(v.latency_ms, d.latency_ms),
              error = v.error, response_body_excerpt = coalesce(v.excerpt, d.response_body_excerpt),
              last_attempt_at = CASE WHEN v.attempted THEN now() ELSE d.last_attempt_at END,
              next_attempt_at = CASE WHEN v.status = 'retrying' THEN now() + make_interval(secs => v.retry_secs) ELSE NULL END
         FROM v WHERE d.id = v.id`,
      [JSON.stringify(records)],
    );
  }
}
