import type { PoolClient } from 'pg';
import { type RecordedEvent, WEBHOOK_API_VERSION } from '@meshwork/contracts';
import { createEntityTables } from '../../platform/database/read-side';
import type { Projection } from '../../platform/projections/projection';
import { WEBHOOK_ENDPOINT_EVENT_TYPES, type WebhookEndpointEvent } from '../events';
import { DELIVERIES_CHANNEL } from '../infrastructure/deliveries.schema';
import { SOURCE_EVENT_TYPES, suffix, webhookEventsOf } from './outgoing-events';
import { WEBHOOKS_ENTITIES, WEBHOOKS_PROJECTION } from './webhooks.entities';

export { WEBHOOKS_PROJECTION };

/**
 * An event older than this when the projection meets it (a rebuild from position 0, a worker
 * back after days) is not delivered: receivers want news, and deliveries are pruned after 30 days.
 */
export const DELIVERY_HORIZON_MS = 3 * 24 * 3_600_000;

/** One webhook event for one customer, as its endpoints will receive it. */
interface Delivery {
  userId: string;
  type: string;
  eventId: string;
  body: string;
}

/**
 * The webhooks read model (endpoints, and whose each later event is), and the outbox: each
 * event of the other contexts a customer can subscribe to becomes one delivery row per
 * enabled endpoint of theirs that subscribes to it, written in the runner's transaction with
 * the checkpoint, so none is lost or written twice. The rows live outside the schema (see
 * deliveries.schema.ts): a rebuild finds them there and adds none.
 */
export const webhooksProjection: Projection = {
  name: WEBHOOKS_PROJECTION,
  version: 1,
  handles: [...WEBHOOK_ENDPOINT_EVENT_TYPES, ...SOURCE_EVENT_TYPES],
  createTables: (db: PoolClient, schema: string) => createEntityTables(db, schema, WEBHOOKS_ENTITIES),
  apply: (db: PoolClient, schema: string, event: RecordedEvent) => applyBatch(db, schema, [event]),
  applyBatch,
};

/**
 * A batch's delivery rows are written by one statement (bench:webhooks: one statement per
 * event kept the projection near 800 events/s, far behind a burst of appends). An endpoint's
 * own event splits the batch: the deliveries before it are written against the endpoints as
 * they were, the ones after it see the change.
 */
async function applyBatch(db: PoolClient, schema: string, events: RecordedEvent[]): Promise<void> {
  let deliveries: Delivery[] = [];
  for (const event of events) {
    if (event.streamId.startsWith('webhookendpoint-')) {
      await writeDeliveries(db, schema, deliveries);
      deliveries = [];
      await applyEndpoint(db, schema, event as RecordedEvent & WebhookEndpointEvent);
      continue;
    }
    const outgoing = await webhookEventsOf(db, schema, event);
    if (Date.now() - event.recordedAt.getTime() > DELIVERY_HORIZON_MS) continue;
    for (const { userId, type, data } of outgoing) {
      const body = JSON.stringify({
        id: event.eventId,
        type,
        api_version: WEBHOOK_API_VERSION,
        created_at: event.occurredAt.toISOString(),
        data,
      });
      deliveries.push({ userId, type, eventId: event.eventId, body });
    }
  }
  await writeDeliveries(db, schema, deliveries);
}

/**
 * One delivery per subscribed enabled endpoint of each customer, in one set-based statement
 * (the read-side rule allows raw SQL here). The NOTIFY wakes the senders at commit, in the
 * same round trip; PostgreSQL folds a transaction's equal notifications into one.
 */
async function writeDeliveries(db: PoolClient, schema: string, deliveries: Delivery[]): Promise<void> {
  if (deliveries.length === 0) return;
  await db.query(
    `WITH written AS (
       INSERT INTO webhook_deliveries (id, endpoint_id, user_id, event_id, event_type, body, status, next_attempt_at, created_at)
       SELECT gen_random_uuid(), e.id, e.user_id, v.event_id, v.event_type, v.body, 'pending', now(), now()
         FROM unnest($1::text[], $2::text[], $3::uuid[], $4::text[]) WITH ORDINALITY AS v(user_id, event_type, event_id, body, n)
         JOIN ${schema}.endpoints e ON e.user_id = v.user_id AND e.enabled AND v.event_type = ANY (e.event_types)
        ORDER BY v.n
       ON CONFLICT DO NOTHING
       RETURNING 1
     )
     SELECT pg_notify('${DELIVERIES_CHANNEL}', '') FROM (SELECT 1 FROM written LIMIT 1) w`,
    [deliveries.map((d) => d.userId), deliveries.map((d) => d.type), deliveries.map((d) => d.eventId), deliveries.map((d) => d.body)],
  );
}

async function applyEndpoint(db: PoolClient, schema: string, event: RecordedEvent & WebhookEndpointEvent): Promise<void> {
  const endpoints = `${schema}.endpoints`;
  const id = suffix(event.streamId);
  switch (event.type) {
    case 'WebhookEndpointCreated': {
      const { userId, url, description, eventTypes, secret, at } = event.data;
      await db.query(
        `INSERT INTO ${endpoints} (id, user_id, url, description, event_types, enabled, disabled_reason, created_at, secret_hint, secrets)
         VALUES ($1, $2, $3, $4, $5, true, NULL, $6, $7, $8) ON CONFLICT (id) DO NOTHING`,
        [id, userId, url, description, eventTypes, at, secret.hint, JSON.stringify([{ sealed: secret.sealed, expires_at: null }])],
      );
      return;
    }
    case 'WebhookEndpointUpdated': {
      const { url, description, eventTypes } = event.data;
      await db.query(
        `UPDATE ${endpoints} SET url = coalesce($2, url), description = coalesce($3, description), event_types = coalesce($4, event_types) WHERE id = $1`,
        [id, url ?? null, description ?? null, eventTypes ?? null],
      );
      return;
    }
    case 'WebhookSecretRolled': {
      const { secret, previousExpiresAt } = event.data;
      // The new secret first; the one it replaces signs until previousExpiresAt; older ones keep their end.
      await db.query(
        `UPDATE ${endpoints}
            SET secret_hint = $2,
                secrets = jsonb_build_array(jsonb_build_object('sealed', $3::text, 'expires_at', NULL))
                       || coalesce((SELECT jsonb_agg(CASE WHEN s->>'expires_at' IS NULL THEN jsonb_set(s, '{expires_at}', to_jsonb($4::text)) ELSE s END)
                                      FROM jsonb_array_elements(secrets) s
                                     WHERE s->>'expires_at' IS NULL OR (s->>'expires_at')::timestamptz > $5::timestamptz), '[]'::jsonb)
          WHERE id = $1`,
        [id, secret.hint, secret.sealed, previousExpiresAt, event.occurredAt],
      );
      return;
    }
    case 'WebhookEndpointDisabled':
      await db.query(`UPDATE ${endpoints} SET enabled = false, disabled_reason = $2 WHERE id = $1`, [id, event.data.reason]);
      return;
    case 'WebhookEndpointEnabled':
      await db.query(`UPDATE ${endpoints} SET enabled = true, disabled_reason = NULL WHERE id = $1`, [id]);
      return;
    case 'WebhookEndpointDeleted':
      await db.query(`DELETE FROM ${endpoints} WHERE id = $1`, [id]);
      return;
  }
}
