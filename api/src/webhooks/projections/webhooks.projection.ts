import type { PoolClient } from 'pg';
import { type RecordedEvent, WEBHOOK_API_VERSION, type WebhookEventType } from '@meshwork/contracts';
import { createEntityTables } from '../../platform/database/read-side';
import type { Projection } from '../../platform/projections/projection';
import { PAYMENT_EVENT_TYPES, type PaymentEvent, type SubscriptionEvent } from '../../billing/events';
import type { ModelEvent } from '../../catalog/events';
import type { DeviceEvent, NetworksEvent } from '../../networks/events';
import { WEBHOOK_ENDPOINT_EVENT_TYPES, type WebhookEndpointEvent } from '../events';
import { WEBHOOKS_ENTITIES, WEBHOOKS_PROJECTION } from './webhooks.entities';
import { DELIVERIES_CHANNEL } from '../infrastructure/deliveries.schema';

export { WEBHOOKS_PROJECTION };

/**
 * An event older than this when the projection meets it (a rebuild from position 0, a worker
 * back after days) is not delivered: receivers want news, and deliveries are pruned after 30 days.
 */
export const DELIVERY_HORIZON_MS = 3 * 24 * 3_600_000;

const SUBSCRIPTION_CHANGES = {
  SubscriptionActivated: 'activated',
  SubscriptionUpgraded: 'upgraded',
  DowngradeScheduled: 'downgrade_scheduled',
  DowngradeApplied: 'downgraded',
  CancellationScheduled: 'cancellation_scheduled',
  CancellationWithdrawn: 'cancellation_withdrawn',
  SubscriptionRenewed: 'renewed',
  SubscriptionPastDue: 'past_due',
  SubscriptionExpired: 'expired',
} as const satisfies Partial<Record<SubscriptionEvent['type'], string>>;

const NETWORK_EVENTS = [
  'NetworkCreated',
  'NetworkSuspended',
  'NetworkDeleted',
  'ClientJoined',
  'ClientDisconnected',
  'ClientRemoved',
] as const satisfies readonly NetworksEvent['type'][];

const DEVICE_EVENTS = ['DeviceRegistered', 'DeviceRevoked'] as const satisfies readonly DeviceEvent['type'][];
const MODEL_ACCESS = 'ModelAccessChanged' satisfies ModelEvent['type'];
const ENTITLEMENTS = 'EntitlementsChanged' satisfies SubscriptionEvent['type'];

/** One webhook event for one customer. */
interface Outgoing {
  userId: string;
  type: WebhookEventType;
  data: Record<string, unknown>;
}

const suffix = (streamId: string) => streamId.slice(streamId.indexOf('-') + 1);

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
  handles: [
    ...WEBHOOK_ENDPOINT_EVENT_TYPES,
    ...Object.keys(SUBSCRIPTION_CHANGES),
    ENTITLEMENTS,
    ...PAYMENT_EVENT_TYPES,
    ...DEVICE_EVENTS,
    ...NETWORK_EVENTS,
    MODEL_ACCESS,
  ],
  createTables: (db: PoolClient, schema: string) => createEntityTables(db, schema, WEBHOOKS_ENTITIES),

  async apply(db: PoolClient, schema: string, event: RecordedEvent) {
    if (event.streamId.startsWith('webhookendpoint-')) return applyEndpoint(db, schema, event as RecordedEvent & WebhookEndpointEvent);
    const outgoing = await webhookEventsOf(db, schema, event);
    if (outgoing.length === 0 || Date.now() - event.recordedAt.getTime() > DELIVERY_HORIZON_MS) return;
    for (const { userId, type, data } of outgoing) {
      const body = JSON.stringify({
        id: event.eventId,
        type,
        api_version: WEBHOOK_API_VERSION,
        created_at: event.occurredAt.toISOString(),
        data,
      });
      // One delivery per subscribed endpoint; the NOTIFY wakes the senders at commit (PostgreSQL
      // folds a transaction's equal notifications into one), in the same round trip.
      await db.query(
        `WITH written AS (
           INSERT INTO webhook_deliveries (id, endpoint_id, user_id, event_id, event_type, body, status, next_attempt_at, created_at)
           SELECT gen_random_uuid(), e.id, e.user_id, $3, $2, $4, 'pending', now(), now()
             FROM ${schema}.endpoints e
            WHERE e.user_id = $1 AND e.enabled AND $2 = ANY (e.event_types)
           ON CONFLICT DO NOTHING
           RETURNING 1
         )
         SELECT pg_notify('${DELIVERIES_CHANNEL}', '') FROM (SELECT 1 FROM written LIMIT 1) w`,
        [userId, type, event.eventId, body],
      );
    }
  },
};

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

/** The webhook events a source event means, and for whom (remembering what later events need). */
async function webhookEventsOf(db: PoolClient, schema: string, event: RecordedEvent): Promise<Outgoing[]> {
  const subject = suffix(event.streamId);
  const data = event.data as Record<string, unknown>;
  if (event.type in SUBSCRIPTION_CHANGES) {
    const change = SUBSCRIPTION_CHANGES[event.type as keyof typeof SUBSCRIPTION_CHANGES];
    const planId = (data.planId ?? data.toPlanId ?? null) as string | null;
    const effectiveAt = (data.effectiveAt ?? data.periodEnd ?? null) as string | null;
    return [{ userId: subject, type: 'subscription.changed', data: { change, plan_id: planId, effective_at: effectiveAt } }];
  }
  switch (event.type) {
    case ENTITLEMENTS:
      await db.query(
        `INSERT INTO ${schema}.user_plans (user_id, plan_id) VALUES ($1, $2) ON CONFLICT (user_id) DO UPDATE SET plan_id = excluded.plan_id`,
        [subject, data.planId],
      );
      return [];
    case 'PaymentInitiated': {
      const facts = (event as RecordedEvent & PaymentEvent & { type: 'PaymentInitiated' }).data;
      await db.query(
        `INSERT INTO ${schema}.payments (payment_id, user_id, plan_id, amount_cents, currency) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
        [subject, facts.userId, facts.planId, facts.amountCents, facts.currency],
      );
      return [];
    }
    case 'PaymentSucceeded':
    case 'PaymentFailed':
    case 'PaymentRefunded': {
      const { rows } = await db.query<{ user_id: string; plan_id: string; amount_cents: number; currency: string }>(
        `SELECT user_id, plan_id, amount_cents, currency FROM ${schema}.payments WHERE payment_id = $1`,
        [subject],
      );
      const payment = rows[0];
      if (!payment) return [];
      const base = { payment_id: subject, plan_id: payment.plan_id, amount_cents: payment.amount_cents, currency: payment.currency };
      if (event.type === 'PaymentSucceeded') return [{ userId: payment.user_id, type: 'payment.succeeded', data: base }];
      if (event.type === 'PaymentFailed')
        return [{ userId: payment.user_id, type: 'payment.failed', data: { ...base, reason: data.reason } }];
      const { refundId, amountCents, fully } = data as { refundId: string; amountCents: number; fully: boolean };
      return [
        { userId: payment.user_id, type: 'payment.refunded', data: { ...base, refund_id: refundId, refunded_cents: amountCents, fully } },
      ];
    }
    case 'DeviceRegistered': {
      const { userId, platform } = data as { userId: string; platform: string };
      await db.query(`INSERT INTO ${schema}.device_owners (device_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [subject, userId]);
      return [{ userId, type: 'device.signed_in', data: { device_id: subject, platform } }];
    }
    case 'DeviceRevoked': {
      const { rows } = await db.query<{ user_id: string }>(`SELECT user_id FROM ${schema}.device_owners WHERE device_id = $1`, [subject]);
      return rows[0] ? [{ userId: rows[0].user_id, type: 'device.revoked', data: { device_id: subject, by: data.by } }] : [];
    }
    case 'NetworkCreated': {
      const { networkId, model } = data as { networkId: string; model: { id: string } };
      return [{ userId: subject, type: 'network.created', data: { network_id: networkId, model_id: model.id } }];
    }
    case 'NetworkSuspended': {
      const { networkId, cause } = data as { networkId: string; cause: { kind: string } };
      return [{ userId: subject, type: 'network.suspended', data: { network_id: networkId, reason: cause.kind } }];
    }
    case 'NetworkDeleted':
      return [{ userId: subject, type: 'network.deleted', data: { network_id: data.networkId } }];
    case 'ClientJoined':
      return [{ userId: subject, type: 'network.client_joined', data: { network_id: data.networkId, device_id: data.deviceId } }];
    case 'ClientDisconnected':
    case 'ClientRemoved': {
      const reason = event.type === 'ClientRemoved' ? 'removed' : (data.cause as { kind: string }).kind;
      return [{ userId: subject, type: 'network.client_left', data: { network_id: data.networkId, device_id: data.deviceId, reason } }];
    }
    case MODEL_ACCESS: {
      const { from, to } = data as { from: string[]; to: string[] };
      const changed = [
        ...to.filter((p) => !from.includes(p)).map((p) => [p, 'granted']),
        ...from.filter((p) => !to.includes(p)).map((p) => [p, 'revoked']),
      ];
      if (changed.length === 0) return [];
      const { rows } = await db.query<{ user_id: string; plan_id: string }>(
        `SELECT u.user_id, u.plan_id FROM ${schema}.user_plans u JOIN ${schema}.endpoints e ON e.user_id = u.user_id
          WHERE u.plan_id = ANY ($1) AND e.enabled AND 'model_access.changed' = ANY (e.event_types) GROUP BY 1, 2`,
        [changed.map(([plan]) => plan)],
      );
      const access = new Map(changed as [string, string][]);
      return rows.map((row) => ({
        userId: row.user_id,
        type: 'model_access.changed',
        data: { model_id: subject, plan_id: row.plan_id, access: access.get(row.plan_id) },
      }));
    }
    default:
      return [];
  }
}
