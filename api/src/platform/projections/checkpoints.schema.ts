import type { Migration } from '../database/migrations';

/** Where each projection and the relay keep how far they have read the log, and what stops them. */
export const checkpointMigrations: Migration[] = [
  {
    id: '0002-checkpoints',
    sql: `
CREATE TABLE projection_checkpoints (
  name text PRIMARY KEY,
  position bigint NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now()
);`,
  },
  {
    id: '0003-checkpoint-versions',
    // The read model's shape each checkpoint was built for (Projection.version).
    sql: `ALTER TABLE projection_checkpoints ADD COLUMN version integer NOT NULL DEFAULT 1;`,
  },
  {
    id: '0004-projection-failures',
    // The event a log consumer is stuck on (one per consumer), and staff's request to retry it.
    sql: `
CREATE TABLE projection_failures (
  name text PRIMARY KEY,
  position bigint NOT NULL,
  event_id uuid NOT NULL,
  event_type text NOT NULL,
  state text NOT NULL CHECK (state IN ('failing', 'stalled')),
  attempts integer NOT NULL,
  error text NOT NULL,
  first_failed_at timestamptz NOT NULL DEFAULT now(),
  last_failed_at timestamptz NOT NULL DEFAULT now(),
  retry_requested_at timestamptz
);`,
  },
];
