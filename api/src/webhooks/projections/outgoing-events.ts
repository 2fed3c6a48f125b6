import type { PoolClient } from 'pg';
import type { RecordedEvent, WebhookEventType } from '@meshwork/contracts';
import { PAYMENT_EVENT_TYPES, type PaymentEvent, type SubscriptionEvent } from '../../billing/events';
import type { ModelEvent } from '../../catalog/events';
import type { DeviceEvent, NetworksEvent } from '../../networks/events';

/**
 * What the other contexts' events mean to customers' webhooks: the webhook event(s) each
 * becomes and for whom, and what the webhooks read model remembers to know whose a later event is.
 */

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
export interface Outgoing {
  userId: string;
  type: WebhookEventType;
  data: Record<string, unknown>;
}

export const suffix = (streamId: string) => streamId.slice(streamId.indexOf('-') + 1);

/** The source events the webhooks projection reads (besides its endpoints' own). */
export const SOURCE_EVENT_TYPES = [
  ...Object.keys(SUBSCRIPTION_CHANGES),
  ENTITLEMENTS,
  ...PAYMENT_EVENT_TYPES,
  ...DEVICE_EVENTS,
  ...NETWORK_EVENTS,
  MODEL_ACCESS,
];

/** The webhook events a source event means, and for whom (remembering what later events need). */
export async function webhookEventsOf(db: PoolClient, schema: string, event: RecordedEvent): Promise<Outgoing[]> {
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
