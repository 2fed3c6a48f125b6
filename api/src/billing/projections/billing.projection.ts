import type { PoolClient } from 'pg';
import type { RecordedEvent } from '@meshwork/contracts';
import type { Projection } from '../../platform/projections/projection';
import { EVERYONE, notifyIdentityChanged } from '../../platform/database/notifications';
import { FREE_PLAN_ID } from '../domain/plan';
import '../domain/plan.upcasters';
import {
  PAYMENT_EVENT_TYPES,
  type PaymentEvent,
  PLAN_EVENT_TYPES,
  type PlanEvent,
  PREFERENCES_EVENT_TYPES,
  type PreferencesEvent,
  SUBSCRIPTION_EVENT_TYPES,
  type SubscriptionEvent,
} from '../events';
import { createEntityTables } from '../../platform/database/read-side';
import { BILLING_ENTITIES, BILLING_PROJECTION } from './billing.entities';
import { applyPayerEvent, PAYER_EVENTS, type UserEvents } from './payers';

export { BILLING_PROJECTION };

const idOf = (streamId: string) => streamId.slice(streamId.indexOf('-') + 1);

/**
 * The billing read model: the plan catalogue, each user's subscription and entitlements,
 * every payment with its refunds, the dashboard preferences that go with the account
 * page, and each payer's email and names (from identity's events, read through `users`).
 * A user without a subscription or entitlements row is on the free plan.
 */
export const billingProjection = (users: UserEvents): Projection => ({
  name: BILLING_PROJECTION,
  // 2: which models a plan allows is the catalog's (rm_catalog.models), no longer a plan column.
  // 3: limits are double precision, holding any number an event carries (see "Projections
  //    and read models" in docs/decisions.md).
  // 4: which models a plan allows is kept here (model_access, from the catalog's events), not
  //    read from the catalog's schema.
  // 5: the tables come from TypeORM entities; the payments' (created_at, seq) indexes are
  //    ascending (scanned backwards for newest first).
  // 6: payers (email, username, names) kept here from identity's events, not read from its schema.
  // 7: model_access dropped: which models a plan opens is read from the catalog (modelsOfPlans).
  // 8: the plans' API terms (api_token_scope, api_requests_per_minute, webhooks, usage_history_days).
  version: 8,
  // CheckoutStarted among them changes nothing here (a subscription starts at SubscriptionActivated).
  handles: [...PLAN_EVENT_TYPES, ...SUBSCRIPTION_EVENT_TYPES, ...PAYMENT_EVENT_TYPES, ...PREFERENCES_EVENT_TYPES, ...PAYER_EVENTS],

  // Tables, columns, keys and indexes come from the entities (billing.entities.ts).
  createTables: (db: PoolClient, schema: string) => createEntityTables(db, schema, BILLING_ENTITIES),

  async apply(db: PoolClient, schema: string, recorded: RecordedEvent) {
    const id = idOf(recorded.streamId);
    const at = recorded.occurredAt;
    if (recorded.streamId.startsWith('user-')) return applyPayerEvent(db, schema, id, await users.decode(id, recorded));
    if (recorded.streamId.startsWith('plan-')) {
      const event = recorded as unknown as PlanEvent;
      await applyPlan(db, schema, event, at);
      // Users billing gave no entitlements have the free plan's limit in their user object.
      if (changesFreePlanLimit(event)) await db.query(`SELECT ${notifyIdentityChanged(`'${EVERYONE}'`)}`);
      return;
    }
    if (recorded.streamId.startsWith('payment-'))
      return applyPayment(db, schema, id, recorded as unknown as PaymentEvent, at, recorded.position);
    if (recorded.streamId.startsWith('subscription-')) return applySubscription(db, schema, id, recorded as unknown as SubscriptionEvent);
    if (recorded.type === 'PreferencesUpdated') {
      const { onboardingCompleted, showOnboarding } = (recorded as unknown as PreferencesEvent).data;
      await db.query(
        `INSERT INTO ${schema}.preferences (user_id, onboarding_completed, show_onboarding) VALUES ($1, coalesce($2, false), coalesce($3, false))
         ON CONFLICT (user_id) DO UPDATE SET onboarding_completed = coalesce($2, preferences.onboarding_completed),
           show_onboarding = coalesce($3, preferences.show_onboarding)`,
        [id, onboardingCompleted ?? null, showOnboarding ?? null],
      );
    }
  },
});

function changesFreePlanLimit(event: PlanEvent): boolean {
  // Any plan's API terms are in its subscribers' user objects (api tokens read them there).
  if (
    event.type === 'PlanUpdated' &&
    (event.data.changes.apiTokenScope !== undefined || event.data.changes.apiRequestsPerMinute !== undefined)
  )
    return true;
  if (event.data.planId !== FREE_PLAN_ID) return false;
  return event.type === 'PlanCreated' || (event.type === 'PlanUpdated' && event.data.changes.maxClientsPerNetwork !== undefined);
}

async function applyPlan(db: PoolClient, schema: string, event: PlanEvent, at: Date): Promise<void> {
  const plans = `${schema}.plans`;
  switch (event.type) {
    case 'PlanCreated': {
      const t = event.data.terms;
      await db.query(
        `INSERT INTO ${plans} (id, name, description, price_cents, yearly_price_cents, duration_days, max_networks, max_clients_per_network,
           features, model_access, api_access, download_access, tier, popular, is_active, created_at,
           api_token_scope, api_requests_per_minute, webhooks, usage_history_days)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)`,
        [
          event.data.planId,
          t.name,
          t.description,
          t.priceCents,
          t.yearlyPriceCents,
          t.durationDays,
          t.maxNetworks,
          t.maxClientsPerNetwork,
          JSON.stringify(t.features),
          t.modelAccess,
          t.apiAccess,
          t.downloadAccess,
          t.tier,
          t.popular,
          event.data.isActive,
          at,
          t.apiTokenScope,
          t.apiRequestsPerMinute,
          t.webhooks,
          t.usageHistoryDays,
        ],
      );
      return;
    }
    case 'PlanUpdated': {
      const columns: Record<string, string> = {
        name: 'name',
        description: 'description',
        priceCents: 'price_cents',
        yearlyPriceCents: 'yearly_price_cents',
        durationDays: 'duration_days',
        maxNetworks: 'max_networks',
        maxClientsPerNetwork: 'max_clients_per_network',
        features: 'features',
        modelAccess: 'model_access',
        apiAccess: 'api_access',
        downloadAccess: 'download_access',
        apiTokenScope: 'api_token_scope',
        apiRequestsPerMinute: 'api_requests_per_minute',
        webhooks: 'webhooks',
        usageHistoryDays: 'usage_history_days',
        tier: 'tier',
        popular: 'popular',
      };
      const entries = Object.entries(event.data.changes).filter(([key]) => columns[key]);
      if (entries.length === 0) return;
      const sets = entries.map(([key], i) => `${columns[key]} = $${i + 2}`).join(', ');
      const values = entries.map(([, value]) => (Array.isArray(value) ? JSON.stringify(value) : value));
      await db.query(`UPDATE ${plans} SET ${sets} WHERE id = $1`, [event.data.planId, ...values]);
      return;
    }
    case 'PlanActivated':
    case 'PlanDeactivated':
      await db.query(`UPDATE ${plans} SET is_active = $2 WHERE id = $1`, [event.data.planId, event.type === 'PlanActivated']);
      return;
    case 'PlanArchived':
      await db.query(`UPDATE ${plans} SET archived = true, is_active = false WHERE id = $1`, [event.data.planId]);
      return;
    case 'PlanRestored':
      await db.query(`UPDATE ${plans} SET archived = false, is_active = true WHERE id = $1`, [event.data.planId]);
      return;
  }
}

async function applySubscription(db: PoolClient, schema: string, userId: string, event: SubscriptionEvent): Promise<void> {
  const subscriptions = `${schema}.subscriptions`;
  const update = (sets: string, values: unknown[]) =>
    db.query(`UPDATE ${subscriptions} SET ${sets} WHERE user_id = $1`, [userId, ...values]);
  switch (event.type) {
    case 'SubscriptionActivated': {
      const d = event.data;
      await db.query(
        `INSERT INTO ${subscriptions} (user_id, status, plan_id, price_cents, cycle, period_start, period_end, provider, provider_subscription_id, started_at)
         VALUES ($1, 'active', $2, $3, $4, $5, $6, $7, $8, $5)
         ON CONFLICT (user_id) DO UPDATE SET status = 'active', plan_id = $2, price_cents = $3, cycle = $4, period_start = $5, period_end = $6,
           provider = $7, provider_subscription_id = $8, cancel_at_period_end = false, scheduled_plan_id = NULL, grace_until = NULL`,
        [userId, d.planId, d.priceCents, d.cycle, d.periodStart, d.periodEnd, d.provider, d.providerSubscriptionId],
      );
      return;
    }
    case 'SubscriptionUpgraded':
    case 'DowngradeApplied':
      await update('plan_id = $2, price_cents = $3, scheduled_plan_id = NULL', [event.data.toPlanId, event.data.priceCents]);
      return;
    case 'DowngradeScheduled':
      await update('scheduled_plan_id = NULLIF($2, plan_id)', [event.data.toPlanId]);
      return;
    case 'CancellationScheduled':
      await update('cancel_at_period_end = true, scheduled_plan_id = NULL', []);
      return;
    case 'CancellationWithdrawn':
      await update('cancel_at_period_end = false', []);
      return;
    case 'SubscriptionRenewed':
      await update("status = 'active', period_start = $2, period_end = $3, grace_until = NULL", [
        event.data.periodStart,
        event.data.periodEnd,
      ]);
      return;
    case 'SubscriptionPastDue':
      await update("status = 'past_due', grace_until = $2", [event.data.graceUntil]);
      return;
    case 'SubscriptionExpired':
      await db.query(`DELETE FROM ${subscriptions} WHERE user_id = $1`, [userId]);
      return;
    case 'EntitlementsChanged': {
      const e = event.data;
      await db.query(
        `INSERT INTO ${schema}.entitlements (user_id, plan_id, max_networks, max_clients_per_network, download_access, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (user_id) DO UPDATE SET plan_id = $2, max_networks = $3, max_clients_per_network = $4,
           download_access = $5, expires_at = $6`,
        [userId, e.planId, e.maxNetworks, e.maxClientsPerNetwork, e.downloadAccess, e.expiresAt],
      );
      // The user object carries the plan: processes caching signed-in users forget this one.
      await db.query(`SELECT ${notifyIdentityChanged('$1')}`, [userId]);
      return;
    }
  }
}

async function applyPayment(
  db: PoolClient,
  schema: string,
  paymentId: string,
  event: PaymentEvent,
  at: Date,
  position: number,
): Promise<void> {
  const payments = `${schema}.payments`;
  switch (event.type) {
    case 'PaymentInitiated': {
      const d = event.data;
      await db.query(
        `INSERT INTO ${payments} (id, user_id, plan_id, amount_cents, currency, status, kind, provider, transaction_id, refund_target, created_at, seq)
         VALUES ($1, $2, $3, $4, $5, 'pending', $6, $7, $8, $9, $10, $11)`,
        [paymentId, d.userId, d.planId, d.amountCents, d.currency, d.kind, d.provider, d.transactionId, d.refundTarget, at, position],
      );
      return;
    }
    case 'PaymentSucceeded':
      await db.query(
        `UPDATE ${payments} SET status = 'completed', processed_at = $2, refund_target = coalesce($3, refund_target) WHERE id = $1`,
        [paymentId, at, event.data.refundTarget],
      );
      return;
    case 'PaymentFailed':
      await db.query(`UPDATE ${payments} SET status = 'failed', processed_at = $2 WHERE id = $1`, [paymentId, at]);
      return;
    case 'PaymentRefunded':
      await db.query(
        `UPDATE ${payments} SET refunded_cents = refunded_cents + $2, refund_reason = $3, status = CASE WHEN $4 THEN 'refunded' ELSE status END
          WHERE id = $1`,
        [paymentId, event.data.amountCents, event.data.reason, event.data.fully],
      );
      return;
  }
}
