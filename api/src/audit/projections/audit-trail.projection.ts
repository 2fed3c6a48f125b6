import type { PoolClient } from 'pg';
import type { RecordedEvent } from '@meshwork/contracts';
import type { Projection } from '../../platform/projections/projection';
import { createEntityTables } from '../../platform/database/read-side';
import { auditDetails } from './audit-details';
import { AUDIT_TRAIL_ENTITIES, AUDIT_TRAIL_PROJECTION, hourOf } from './audit-trail.entities';

/** `user-<id>` → [`user`, `<id>`]: every stream is named `<category>-<id>`, categories have no dash. */
export function resourceOf(streamId: string): [type: string, id: string] {
  const dash = streamId.indexOf('-');
  return dash < 0 ? [streamId, ''] : [streamId.slice(0, dash), streamId.slice(dash + 1)];
}

/**
 * The audit trail: one row per event, answering who did what, when, to which resource and in
 * which request, with the event's data minus secrets and personal fields. The event log is
 * the source; this is its index for auditors and the console (filter by actor, resource,
 * action, time or request without scanning event payloads).
 */
export const auditTrailProjection: Projection = {
  name: AUDIT_TRAIL_PROJECTION,
  // 2: tables from audit-trail.entities.ts. 3: resource, actor ip and user agent, details; indexes end in position.
  // 4: entry_hours, each hour's span of positions, which time-filtered pages are bounded by.
  // 5: actor_token_id, the API token that made the request.
  version: 5,
  handles: 'all',
  createTables: (db: PoolClient, schema: string) => createEntityTables(db, schema, AUDIT_TRAIL_ENTITIES),
  async apply(db: PoolClient, schema: string, event: RecordedEvent) {
    const { actor, correlationId, causationId } = event.metadata;
    const [resourceType, resourceId] = resourceOf(event.streamId);
    if (event.type === 'DeviceRegistered') {
      const { userId } = event.data as { userId: string };
      await db.query(`INSERT INTO ${schema}.device_owners (device_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [
        resourceId,
        userId,
      ]);
    }
    // Personal streams encrypt the actor's ip and user agent under their user's key (identity's and networks' codecs).
    const keyOwner =
      resourceType === 'user'
        ? resourceId
        : resourceType === 'device'
          ? ((await db.query<{ user_id: string }>(`SELECT user_id FROM ${schema}.device_owners WHERE device_id = $1`, [resourceId])).rows[0]
              ?.user_id ?? null)
          : null;
    // Columns named: the generated table's column order is TypeORM's, not this list's. The entry and its
    // hour's span of positions go in one statement (PostgreSQL runs a WITH ... INSERT unread): a second
    // round trip per event cost rebuilds over a third of their speed. least/greatest rather than trusting
    // the order events come in: a span must never be too narrow.
    await db.query(
      `WITH entry AS (
         INSERT INTO ${schema}.entries (position, event_id, type, stream_id, resource_type, resource_id, stream_version, occurred_at,
                actor_user_id, actor_is_staff, actor_ip, actor_user_agent, key_owner, correlation_id, causation_id, details, actor_token_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $18))
       INSERT INTO ${schema}.entry_hours (hour, min_position, max_position) VALUES ($17, $1, $1)
       ON CONFLICT (hour) DO UPDATE SET min_position = least(entry_hours.min_position, EXCLUDED.min_position),
                                        max_position = greatest(entry_hours.max_position, EXCLUDED.max_position)`,
      [
        event.position,
        event.eventId,
        event.type,
        event.streamId,
        resourceType,
        resourceId,
        event.streamVersion,
        event.occurredAt,
        actor.userId,
        actor.isStaff,
        actor.ip,
        actor.userAgent,
        keyOwner,
        correlationId,
        causationId,
        JSON.stringify(auditDetails(event.data)),
        hourOf(event.occurredAt),
        typeof actor.tokenId === 'string' ? actor.tokenId : null,
      ],
    );
  },
};
