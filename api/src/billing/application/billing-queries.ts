import { Inject, Injectable } from '@nestjs/common';
import {
  type AdminPayment,
  type AdminPlan,
  moneyText,
  type Payment,
  type Plan,
  type PlanInfo,
  type Preferences,
  type Subscription,
  type UpgradeOption,
} from '../../../../contracts/src/billing/billing.contract';
import { readModelSchema } from '../../platform/projections/projection';
import { modelNamesOfPlanSql } from '../../catalog/projections/catalog.projection';
import { USERS_PROJECTION } from '../../identity/projections/users.projection';
import { DATABASE, type Database } from '../../platform/database/database';
import { notFound, unavailable } from '../../platform/domain/errors';
import type { ListQuery } from '../../platform/http/react-admin-list';
import { FREE_PLAN_ID } from '../domain/plan';
import { BILLING_PROJECTION } from '../projections/billing.projection';

const S = readModelSchema(BILLING_PROJECTION);
const USERS = `${readModelSchema(USERS_PROJECTION)}.users`;

/** The plans table with each plan's allowed_models, which the catalog decides, as `alias`. */
const plansWithModels = (alias: string) =>
  `(SELECT p.*, ${modelNamesOfPlanSql('p.id', 'configured')} AS allowed_models FROM ${S}.plans p) AS ${alias}`;

export interface PlanRow {
  id: string;
  name: string;
  description: string;
  price_cents: number;
  yearly_price_cents: number;
  duration_days: number;
  max_networks: number;
  max_clients_per_network: number;
  allowed_models: string[];
  features: string[];
  model_access: string;
  api_access: string;
  download_access: boolean;
  tier: number;
  popular: boolean;
  is_active: boolean;
  archived: boolean;
}

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

interface PaymentRow {
  id: string;
  user_id: string;
  plan_id: string;
  amount_cents: number;
  status: Payment['status'];
  kind: string;
  provider: 'stripe' | 'simulated';
  transaction_id: string;
  refunded_cents: number;
  refund_reason: string | null;
  created_at: Date;
  processed_at: Date | null;
}

export function toPlan(row: PlanRow): Plan {
  return {
    id: row.id,
    slug: row.id,
    name: row.name,
    description: row.description,
    price: moneyText(row.price_cents),
    yearly_price: moneyText(row.yearly_price_cents),
    currency: 'USD',
    duration_days: row.duration_days,
    max_networks: row.max_networks,
    max_clients_per_network: row.max_clients_per_network,
    max_clients: row.max_clients_per_network,
    allowed_models: row.allowed_models,
    features: row.features,
    model_access: row.model_access,
    api_access: row.api_access,
    download_access: row.download_access,
    tier: row.tier,
    popular: row.popular,
    is_active: row.is_active,
  };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Reads of the billing read model, in the shapes of the contract. */
@Injectable()
export class BillingQueries {
  static readonly sortablePayments = ['createdDate', 'amount', 'status', 'userEmail', 'planName'] as const;

  constructor(@Inject(DATABASE) private readonly database: Database) {}

  private get pool() {
    return this.database.pool;
  }

  /** Plans on sale, cheapest tier first. */
  async plansOnSale(): Promise<Plan[]> {
    const { rows } = await this.pool.query<PlanRow>(
      `SELECT * FROM ${plansWithModels('plans')} WHERE is_active AND NOT archived ORDER BY tier, price_cents, id`,
    );
    return rows.map(toPlan);
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
    const { rows } = await this.pool.query<PlanRow>(`SELECT * FROM ${plansWithModels('plans')} WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }

  /**
   * The console's plans whose name or id has `q`, with their subscriber counts: the live
   * ones (on sale or held back), or the archived ones when `archived`.
   */
  adminPlans(q: string | undefined, archived = false): Promise<AdminPlan[]> {
    return this.adminPlanRows({ q: q?.trim() || null, id: null, archived });
  }

  /** One plan for the console, archived or not. */
  async adminPlan(id: string): Promise<AdminPlan> {
    const [plan] = await this.adminPlanRows({ q: null, id, archived: null });
    if (!plan) throw notFound();
    return plan;
  }

  private async adminPlanRows({
    q,
    id,
    archived,
  }: {
    q: string | null;
    id: string | null;
    archived: boolean | null;
  }): Promise<AdminPlan[]> {
    const { rows } = await this.pool.query<PlanRow & { subscribers: number }>(
      `SELECT p.*, (SELECT count(*)::int FROM ${S}.subscriptions s WHERE s.plan_id = p.id) AS subscribers
         FROM ${plansWithModels('p')} WHERE ($3::boolean IS NULL OR p.archived = $3) AND ($2::text IS NULL OR p.id = $2)
          AND ($1::text IS NULL OR p.name ILIKE '%' || $1 || '%' OR p.id ILIKE '%' || $1 || '%')
        ORDER BY p.tier, p.price_cents, p.id`,
      [q, id, archived],
    );
    return rows.map((row) => ({ ...toPlan(row), subscribers: row.subscribers, archived: row.archived }));
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

  /** The console's payments resource: search, date filter, sort and range. */
  async adminPayments(list: ListQuery, now: Date): Promise<{ rows: AdminPayment[]; total: number }> {
    const q = typeof list.filter.q === 'string' && list.filter.q.trim() ? list.filter.q.trim().toLowerCase() : null;
    const since = sinceOf(list.filter.period, now);
    const order: Record<string, string> = {
      createdDate: 'pay.created_at',
      amount: 'pay.amount_cents',
      status: 'pay.status',
      userEmail: 'u.email',
      planName: 'p.name',
    };
    const where = `($1::text IS NULL OR position($1 in lower(coalesce(u.email, '') || ' ' || coalesce(u.username, '') || ' ' || coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '') || ' ' || pay.transaction_id || ' ' || coalesce(p.name, pay.plan_id))) > 0)
                   AND ($2::timestamptz IS NULL OR pay.created_at >= $2)`;
    const from = `${S}.payments pay LEFT JOIN ${USERS} u ON u.id = pay.user_id LEFT JOIN ${S}.plans p ON p.id = pay.plan_id`;
    const { rows } = await this.pool.query<
      PaymentRow & {
        email: string | null;
        username: string | null;
        first_name: string | null;
        last_name: string | null;
        plan_name: string | null;
      }
    >(
      `SELECT pay.*, u.email, u.username, u.first_name, u.last_name, p.name AS plan_name FROM ${from} WHERE ${where}
        ORDER BY ${order[list.sortField]} ${list.sortOrder}, pay.seq ${list.sortOrder} LIMIT $3 OFFSET $4`,
      [q, since, list.limit, list.offset],
    );
    const { rows: count } = await this.pool.query<{ total: number }>(`SELECT count(*)::int AS total FROM ${from} WHERE ${where}`, [
      q,
      since,
    ]);
    return { rows: rows.map(toAdminPayment), total: count[0]!.total };
  }

  async adminPayment(id: string): Promise<AdminPayment> {
    const { rows } = await this.pool.query(
      `SELECT pay.*, u.email, u.username, u.first_name, u.last_name, p.name AS plan_name
         FROM ${S}.payments pay LEFT JOIN ${USERS} u ON u.id = pay.user_id LEFT JOIN ${S}.plans p ON p.id = pay.plan_id WHERE pay.id = $1`,
      [id],
    );
    if (!rows[0]) throw notFound();
    return toAdminPayment(rows[0]);
  }
}

function sinceOf(period: unknown, now: Date): Date | null {
  const day = 86_400_000;
  switch (period) {
    case 'today':
      return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    case '7d':
      return new Date(now.getTime() - 7 * day);
    case 'month':
      return new Date(now.getTime() - 30 * day);
    default:
      return null;
  }
}

function describePayment(kind: string, planName: string): string {
  if (kind === 'upgrade') return `Upgrade to ${planName} (prorated)`;
  if (kind === 'renewal') return `${planName} renewal`;
  return `${planName} subscription`;
}

function toAdminPayment(
  row: PaymentRow & {
    email: string | null;
    username: string | null;
    first_name: string | null;
    last_name: string | null;
    plan_name: string | null;
  },
): AdminPayment {
  const fullName = [row.first_name, row.last_name].filter(Boolean).join(' ');
  return {
    id: row.id,
    userId: row.user_id,
    userEmail: row.email ?? '',
    userName: fullName || row.username || '',
    planId: row.plan_id,
    planName: row.plan_name ?? row.plan_id,
    amount: row.amount_cents / 100,
    currency: 'USD',
    status: row.status,
    paymentMethod: row.provider,
    transactionId: row.transaction_id,
    createdDate: row.created_at.toISOString(),
    processedDate: iso(row.processed_at),
    refundAmount: row.refunded_cents / 100,
    refundReason: row.refund_reason,
  };
}
