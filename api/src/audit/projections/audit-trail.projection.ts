import type { PoolClient } from 'pg';
import type { RecordedEvent } from '@meshwork/contracts';
import type { Projection } from '../../platform/projections/projection';

/**
 * The audit trail: one row per event, answering who did what, when, to which stream and
 * in which request. The event log is the source; this is its index for auditors and the
 * console (filter by actor, stream, type or time without scanning event payloads).
 */
export const auditTrailProjection: Projection = {
  name: 'audit_trail',
  handles: 'all',
  async createTables(db: PoolClient, schema: string) {
    await db.query(`
      CREATE TABLE ${schema}.entries (
        position bigint PRIMARY KEY,
        event_id uuid NOT NULL,
        type text NOT NULL,
        stream_id text NOT NULL,
        stream_version integer NOT NULL,
        occurred_at timestamptz NOT NULL,
        actor_user_id text,
        actor_is_staff boolean NOT NULL,
        correlation_id text NOT NULL,
        causation_id text
      );
      CREATE INDEX ON ${schema}.entries (stream_id, stream_version);
      CREATE INDEX ON ${schema}.entries (actor_user_id, occurred_at);
      CREATE INDEX ON ${schema}.entries (type, occurred_at);
      CREATE INDEX ON ${schema}.entries (correlation_id);`);
  },
  async apply(db: PoolClient, schema: string, event: RecordedEvent) {
    const { actor, correlationId, causationId } = event.metadata;
    await db.query(`INSERT INTO ${schema}.entries VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, [
      event.position,
      event.eventId,
      event.type,
      event.streamId,
      event.streamVersion,
      event.occurredAt,
      actor.userId,
      actor.isStaff,
      correlationId,
      causationId,
    ]);
  },
};
