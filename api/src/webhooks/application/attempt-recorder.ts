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

/** Most attempts written in one statement. */
const BATCH = 200;

/**
 * Writes attempts in batches: whatever ended while the previous statement ran goes in the next,
 * one statement each, so a hundred deliveries in flight do not queue for a hundred connections
 * the projections also need. Each caller's promise settles with its batch.
 */
export class AttemptRecorder {
  private queue: { record: AttemptRecord; done: (error?: unknown) => void }[] = [];
  private running = false;

  constructor(private readonly pool: Pool) {}

  record(record: AttemptRecord): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ record, done: (error) => (error ? reject(error as Error) : resolve()) });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, BATCH);
      try {
        await this.write(batch.map((b) => b.record));
        for (const b of batch) b.done();
      } catch (error) {
        for (const b of batch) b.done(error);
      }
    }
    this.running = false;
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
