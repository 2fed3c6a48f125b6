import type { Migration } from '../../../api/src/platform/database/migrations';

/** Where each projection and the relay keep how far they have read the log. */
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
];
