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
import { LessThanOrEqual, type Repository, type SelectQueryBuilder } from 'typeorm';
import { DATABASE, type Database } from '../../platform/database/database';
import { readSide } from '../../platform/database/read-side';
import { unavailable } from '../../platform/domain/errors';
import { FREE_PLAN_ID } from '../domain/plan';
import { BILLING_ENTITIES, PaymentRecord, PlanRecord, PreferencesRecord, SubscriptionRecord } from '../projections/billing.entities';
import { iso, toPlan } from './billing-rows';
import { PLAN_MODEL_NAMES, type PlanModelNames } from './plan-model-names.port';
import { plansOfUsers } from './plans-of-users';

/** A subscription with its plan and scheduled plan (`plan`, `scheduled`), when they are still there. */
type SubscriptionWithPlans = SubscriptionRecord & { plan?: PlanRecord; scheduled?: PlanRecord };

/** A payment with its plan, when it is still there. */
type PaymentWithPlan = PaymentRecord & { plan?: PlanRecord };

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

  /** Plans on sale, cheapest tier first. */
  async plansOnSale(): Promise<Plan[]> {
    const rows = await (
      await this.repository(PlanRecord)
    ).find({
      where: { is_active: true, archived: false },
      order: { tier: 'ASC', price_cents: 'ASC', id: 'ASC' },
    });
    const models = await this.planModels.of(rows.map((row) => row.id));
    return rows.map((row) => toPlan(row, models.get(row.id)!));
  }

  /** The dashboard's onboarding flags (both off for a user who never set them). */
  async preferences(userId: string): Promise<Preferences> {
    const row = await (await this.repository(PreferencesRecord)).findOneBy({ user_id: userId });
    return { onboarding_completed: row?.onboarding_completed ?? false, show_onboarding: row?.show_onboarding ?? false };
  }

  async plan(id: string): Promise<PlanRecord | null> {
    return (await this.repository(PlanRecord)).findOneBy({ id });
  }

  /** The user's subscription; a user without one is on the free plan. */
  async subscription(userId: string): Promise<Subscription> {
    const row = await (
      await this.repository<SubscriptionWithPlans>(SubscriptionRecord)
    )
      .createQueryBuilder('s')
      .leftJoinAndMapOne('s.plan', PlanRecord, 'p', 'p.id = s.plan_id')
      .leftJoinAndMapOne('s.scheduled', PlanRecord, 'sp', 'sp.id = s.scheduled_plan_id')
      .where('s.user_id = :userId', { userId })
      .getOne();
    if (!row) {
      const free = await this.plan(FREE_PLAN_ID);
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
      plan_name: row.plan?.name ?? row.plan_id,
      status: row.status,
      billing_cycle: row.cycle,
      price: moneyText(row.price_cents),
      currency: 'USD',
      started_at: iso(row.started_at),
      expires_at: iso(row.period_end),
      next_billing_date: row.cancel_at_period_end ? null : iso(row.period_end),
      cancel_at_period_end: row.cancel_at_period_end,
      scheduled_plan_id: row.scheduled_plan_id,
      scheduled_plan_name: row.scheduled?.name ?? null,
      grace_until: iso(row.grace_until),
      payment_method: row.provider,
    };
  }

  /** The user's payments, newest first. */
  async payments(userId: string, limit = 100): Promise<Payment[]> {
    const rows = await (
      await this.paymentsWithPlans()
    )
      .where('pay.user_id = :userId', { userId })
      .orderBy('pay.created_at', 'DESC')
      .addOrderBy('pay.seq', 'DESC')
      .limit(limit)
      .getMany();
    return rows.map((row) => ({
      id: row.id,
      amount: moneyText(row.amount_cents),
      currency: 'USD',
      status: row.status,
      created_at: row.created_at.toISOString(),
      plan_id: row.plan_id,
      plan_name: row.plan?.name ?? row.plan_id,
      description: describePayment(row.kind, row.plan?.name ?? row.plan_id),
      refunded_amount: moneyText(row.refunded_cents),
    }));
  }

  /** What the user's plan allows now, and where they can go from it (spec "Plan info"). */
  async planInfo(userId: string): Promise<PlanInfo> {
    const current = (await plansOfUsers(this.database, [userId])).get(userId);
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
      plan: current.planId,
      plan_name: current.planName,
      plan_slug: current.planId,
      expires_at: current.expiresAt,
      permissions: {
        max_networks: current.maxNetworks,
        max_clients_per_network: current.maxClientsPerNetwork,
        api_token_scope: current.apiTokenScope,
        api_requests_per_minute: current.apiRequestsPerMinute,
        webhooks: current.webhooks,
        usage_history_days: current.usageHistoryDays,
      },
      // The catalog's to fill (see AccountPlanController): models are not billing's.
      available_models: [],
      download_info: { download_access: current.downloadAccess },
      plan_transitions: { available_upgrades: upgrades },
    };
  }

  /** Subscriptions whose period has ended by `now`: the billing clock settles them. */
  async endedPeriods(now: Date): Promise<Pick<SubscriptionRecord, 'user_id' | 'provider' | 'grace_until' | 'period_end'>[]> {
    return (await this.repository(SubscriptionRecord)).find({
      select: { user_id: true, provider: true, grace_until: true, period_end: true },
      where: [{ period_end: LessThanOrEqual(now) }, { status: 'past_due', grace_until: LessThanOrEqual(now) }],
      order: { period_end: 'ASC' },
      take: 500,
    });
  }

  async paymentByRefundTarget(refundTarget: string): Promise<string | null> {
    const payment = await (await this.repository(PaymentRecord)).findOne({ select: { id: true }, where: { refund_target: refundTarget } });
    return payment?.id ?? null;
  }

  /** Payments with their plan (`plan`), at most one. */
  private async paymentsWithPlans(): Promise<SelectQueryBuilder<PaymentWithPlan>> {
    return (await this.repository<PaymentWithPlan>(PaymentRecord))
      .createQueryBuilder('pay')
      .leftJoinAndMapOne('pay.plan', PlanRecord, 'p', 'p.id = pay.plan_id');
  }

  private async repository<Row extends object>(entity: new () => Partial<Row>): Promise<Repository<Row>> {
    return (await readSide(this.database.pool, BILLING_ENTITIES)).getRepository<Row>(entity);
  }
}

function describePayment(kind: string, planName: string): string {
  if (kind === 'upgrade') return `Upgrade to ${planName} (prorated)`;
  if (kind === 'renewal') return `${planName} renewal`;
  return `${planName} subscription`;
}
