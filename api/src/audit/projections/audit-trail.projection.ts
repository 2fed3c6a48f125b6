import type { PoolClient } from 'pg';
import type { RecordedEvent } from '@meshwork/contracts';
import type { Projection } from '../../platform/projections/projection';
import { createEntityTables } from '../../platform/database/read-side';
import { AUDIT_TRAIL_ENTITIES, AUDIT_TRAIL_PROJECTION } from './audit-trail.entities';

/**
 * The audit trail: one row per event, answering who did what, when, to which stream and
 * in which request. The event log is the source; this is its index for auditors and the
 * console (filter by actor, stream, type or time without scanning event payloads).
 */
export const auditTrailProjection: Projection = {
  name: AUDIT_TRAIL_PROJECTION,
  version: 2,
  handles: 'all',
  // Version 2: the table comes from audit-trail.entities.ts (the same columns, key and indexes).
  createTables: (db: PoolClient, schema: string) => createEntityTables(db, schema, AUDIT_TRAIL_ENTITIES),
  async apply(db: PoolClient, schema: string, event: RecordedEvent) {
    const { actor, correlationId, causationId } = event.metadata;
    // Columns named: the generated table's column order is TypeORM's, not this list's.
    await db.query(
      `INSERT INTO ${schema}.entries (position, event_id, type, stream_id, stream_version, occurred_at, actor_user_id, actor_is_staff, correlation_id, causation_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
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
      ],
    );
  },
};
