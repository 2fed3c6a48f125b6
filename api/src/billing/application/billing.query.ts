import { Inject, Injectable } from '@nestjs/common';
import {
  moneyText,
  type Payment,
  type Plan,
  type PlanInfo,
  type Preferences,
  type Subscription,
  type UpgradeOption,
} from '@meshwork/contracts';
import { DATABASE, type Database } from '../../platform/database/database';
import { unavailable } from '../../platform/domain/errors';
import { FREE_PLAN_ID } from '../domain/plan';
import { BILLING_SCHEMA as S, iso, type PaymentRow, type PlanRow, toPlan } from './billing-rows';
import { PLAN_MODEL_NAMES, type PlanModelNames } from './plan-model-names.port';

interface SubscriptionRow {
  status: 'active' | 'past_due';
  plan_id: string;
  price_cents: number;
  cycle: 'monthly' | 'yearly';
  period_start: Date;
  period_end: Date;
  provider: 'stripe' | 'simulated';
  provider_subscription_id: string | null;
  cancel_at_period_end: boolean;
  scheduled_plan_id: string | null;
  grace_until: Date | null;
  started_at: Date;
}

/**
 * Reads of the billing read model for the customer (plans, subscription, payments, plan
 * info, dashboard preferences) and for billing itself (the clock's and the webhooks'), in
 * the contract's shapes. The console's are in billing-console.query.ts.
 */
@Injectable()
export class BillingQueries {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(PLAN_MODEL_NAMES) private readonly planModels: PlanModelNames,
  ) {}

  private get pool() {
    return this.database.pool;
  }

  /** Plans on sale, cheapest tier first. */
  async plansOnSale(): Promise<Plan[]> {
    const { rows } = await this.pool.query<PlanRow>(
      `SELECT * FROM ${S}.plans WHERE is_active AND NOT archived ORDER BY tier, price_cents, id`,
    );
    const models = await this.planModels.of(rows.map((row) => row.id));
    return rows.map((row) => toPlan(row, models.get(row.id)!));
  }

  /** The dashboard's onboarding flags (both off for a user who never set them). */
  async preferences(userId: string): Promise<Preferences> {
    const { rows } = await this.pool.query<{ onboarding_completed: boolean; show_onboarding: boolean }>(
      `SELECT onboarding_completed, show_onboarding FROM ${S}.preferences WHERE user_id = $1`,
      [userId],
    );
    return { onboarding_completed: rows[0]?.onboarding_completed ?? false, show_onboarding: rows[0]?.show_onboarding ?? false };
  }

  async planRow(id: string): Promise<PlanRow | null> {
    const { rows } = await this.pool.query<PlanRow>(`SELECT * FROM ${S}.plans WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }

  /** The user's subscription; a user without one is on the free plan. */
  async subscription(userId: string): Promise<Subscription> {
    const { rows } = await this.pool.query<SubscriptionRow & { plan_name: string | null; scheduled_plan_name: string | null }>(
      `SELECT s.*, p.name AS plan_name, sp.name AS scheduled_plan_name FROM ${S}.subscriptions s
         LEFT JOIN ${S}.plans p ON p.id = s.plan_id LEFT JOIN ${S}.plans sp ON sp.id = s.scheduled_plan_id
        WHERE s.user_id = $1`,
      [userId],
    );
    const row = rows[0];
    if (!row) {
      const free = await this.planRow(FREE_PLAN_ID);
      return {
        plan_id: FREE_PLAN_ID,
        plan_name: free?.name ?? 'Free',
        status: 'free',
        billing_cycle: null,
        price: '0.00',
        currency: 'USD',
        started_at: null,
        expires_at: null,
        next_billing_date: null,
        cancel_at_period_end: false,
        scheduled_plan_id: null,
        scheduled_plan_name: null,
        grace_until: null,
        payment_method: null,
      };
    }
    return {
      plan_id: row.plan_id,
      plan_name: row.plan_name ?? row.plan_id,
      status: row.status,
      billing_cycle: row.cycle,
      price: moneyText(row.price_cents),
      currency: 'USD',
      started_at: iso(row.started_at),
      expires_at: iso(row.period_end),
      next_billing_date: row.cancel_at_period_end ? null : iso(row.period_end),
      cancel_at_period_end: row.cancel_at_period_end,
      scheduled_plan_id: row.scheduled_plan_id,
      scheduled_plan_name: row.scheduled_plan_name,
      grace_until: iso(row.grace_until),
      payment_method: row.provider,
    };
  }

  /** The user's payments, newest first. */
  async payments(userId: string, limit = 100): Promise<Payment[]> {
    const { rows } = await this.pool.query<PaymentRow & { plan_name: string | null }>(
      `SELECT pay.*, p.name AS plan_name FROM ${S}.payments pay LEFT JOIN ${S}.plans p ON p.id = pay.plan_id
        WHERE pay.user_id = $1 ORDER BY pay.created_at DESC, pay.seq DESC LIMIT $2`,
      [userId, limit],
    );
    return rows.map((row) => ({
      id: row.id,
      amount: moneyText(row.amount_cents),
      currency: 'USD',
      status: row.status,
      created_at: row.created_at.toISOString(),
      plan_id: row.plan_id,
      plan_name: row.plan_name ?? row.plan_id,
      description: describePayment(row.kind, row.plan_name ?? row.plan_id),
      refunded_amount: moneyText(row.refunded_cents),
    }));
  }

  /** What the user's plan allows now, and where they can go from it (spec "Plan info"). */
  async planInfo(userId: string): Promise<PlanInfo> {
    const { rows } = await this.pool.query<{
      plan_id: string;
      name: string;
      tier: number;
      price_cents: number;
      max_networks: number;
      max_clients_per_network: number;
      download_access: boolean;
      expires_at: Date | null;
    }>(
      `SELECT coalesce(e.plan_id, f.id) AS plan_id, p.name, p.tier, p.price_cents,
              coalesce(e.max_networks, f.max_networks) AS max_networks,
              coalesce(e.max_clients_per_network, f.max_clients_per_network) AS max_clients_per_network,
              coalesce(e.download_access, f.download_access) AS download_access, e.expires_at
         FROM ${S}.plans f
         LEFT JOIN ${S}.entitlements e ON e.user_id = $1
         JOIN ${S}.plans p ON p.id = coalesce(e.plan_id, f.id)
        WHERE f.id = $2`,
      [userId, FREE_PLAN_ID],
    );
    const current = rows[0];
    if (!current) throw unavailable('Plans are not loaded yet. Please try again in a moment.');
    const upgrades: UpgradeOption[] = (await this.plansOnSale())
      .filter((plan) => plan.tier > current.tier)
      .map((plan) => ({
        name: plan.name,
        slug: plan.slug,
        max_networks: plan.max_networks,
        max_clients_per_network: plan.max_clients_per_network,
        upgrade_price: plan.price,
        benefits: plan.features,
      }));
    return {
      plan: current.plan_id,
      plan_name: current.name,
      plan_slug: current.plan_id,
      expires_at: iso(current.expires_at),
      permissions: { max_networks: current.max_networks, max_clients_per_network: current.max_clients_per_network },
      // The catalog's to fill (see AccountPlanController): models are not billing's.
      available_models: [],
      download_info: { download_access: current.download_access },
      plan_transitions: { available_upgrades: upgrades },
    };
  }

  /** Subscriptions whose period has ended by `now`: the billing clock settles them. */
  async endedPeriods(now: Date): Promise<{ user_id: string; provider: string; grace_until: Date | null; period_end: Date }[]> {
    const { rows } = await this.pool.query(
      `SELECT user_id, provider, grace_until, period_end FROM ${S}.subscriptions
        WHERE period_end <= $1 OR (status = 'past_due' AND grace_until <= $1) ORDER BY period_end LIMIT 500`,
      [now],
    );
    return rows;
  }

  async paymentByRefundTarget(refundTarget: string): Promise<string | null> {
    const { rows } = await this.pool.query<{ id: string }>(`SELECT id FROM ${S}.payments WHERE refund_target = $1`, [refundTarget]);
    return rows[0]?.id ?? null;
  }
}

function describePayment(kind: string, planName: string): string {
  if (kind === 'upgrade') return `Upgrade to ${planName} (prorated)`;
  if (kind === 'renewal') return `${planName} renewal`;
  return `${planName} subscription`;
}
