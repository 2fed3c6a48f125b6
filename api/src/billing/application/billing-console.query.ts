import { Inject, Injectable } from '@nestjs/common';
import type { AdminPayment, AdminPlan } from '@meshwork/contracts';
import type { SelectQueryBuilder } from 'typeorm';
import { DATABASE, type Database } from '../../platform/database/database';
import { readSide } from '../../platform/database/read-side';
import { notFound } from '../../platform/domain/errors';
import type { ListQuery } from '../../platform/http/react-admin-list';
import { BILLING_ENTITIES, PayerRecord, PaymentRecord, PlanRecord, SubscriptionRecord } from '../projections/billing.entities';
import { BILLING_SCHEMA as S, iso, toPlan } from './billing-rows';
import { PLAN_MODEL_NAMES, type PlanModelNames } from './plan-model-names.port';

/** A payment with its payer (billing's own copy of their email and names) and plan, when they are still there. */
type PaymentWithNames = PaymentRecord & { user?: PayerRecord; plan?: PlanRecord };

/** The staff console's reads of the billing read model: plans with subscriber counts, and payments. */
@Injectable()
export class BillingConsoleQueries {
  static readonly sortablePayments = ['createdDate', 'amount', 'status', 'userEmail', 'planName'] as const;

  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(PLAN_MODEL_NAMES) private readonly planModels: PlanModelNames,
  ) {}

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
    const plans = (await this.readSide())
      .getRepository(PlanRecord)
      .createQueryBuilder('p')
      .addSelect((sub) => sub.select('count(*)').from(SubscriptionRecord, 's').where('s.plan_id = p.id'), 'subscribers');
    if (archived !== null) plans.andWhere('p.archived = :archived', { archived });
    if (id !== null) plans.andWhere('p.id = :id', { id });
    // As before, `q` is matched as typed (a % in it is a wildcard).
    if (q !== null) plans.andWhere("(p.name ILIKE '%' || :q || '%' OR p.id ILIKE '%' || :q || '%')", { q });
    plans.orderBy('p.tier').addOrderBy('p.price_cents').addOrderBy('p.id');
    // No joins: one raw row per entity, in the same order.
    const { entities, raw } = await plans.getRawAndEntities<{ subscribers: string }>();
    const models = await this.planModels.of(entities.map((plan) => plan.id));
    return entities.map((plan, i) => ({
      ...toPlan(plan, models.get(plan.id)!),
      subscribers: Number(raw[i]!.subscribers),
      archived: plan.archived,
    }));
  }

  /** The console's payments resource: search, date filter, sort and range. */
  async adminPayments(list: ListQuery, now: Date): Promise<{ rows: AdminPayment[]; total: number }> {
    const payments = await this.payments();
    if (typeof list.filter.q === 'string' && list.filter.q.trim()) {
      payments.andWhere(
        `position(:q in lower(coalesce(u.email, '') || ' ' || coalesce(u.username, '') || ' ' || coalesce(u.first_name, '') || ' ' ||
           coalesce(u.last_name, '') || ' ' || pay.transaction_id || ' ' || coalesce(p.name, pay.plan_id))) > 0`,
        { q: list.filter.q.trim().toLowerCase() },
      );
    }
    const since = sinceOf(list.filter.period, now);
    if (since) payments.andWhere('pay.created_at >= :since', { since });
    const order: Record<string, string> = {
      createdDate: 'pay.created_at',
      amount: 'pay.amount_cents',
      status: 'pay.status',
      userEmail: 'u.email',
      planName: 'p.name',
    };
    // sortField is checked against `sortablePayments` before it gets here; seq keeps pages stable.
    payments.orderBy(order[list.sortField]!, list.sortOrder).addOrderBy('pay.seq', list.sortOrder).offset(list.offset).limit(list.limit);
    const [rows, total] = await payments.getManyAndCount();
    return { rows: rows.map(toAdminPayment), total };
  }

  async adminPayment(id: string): Promise<AdminPayment> {
    const payment = await (await this.payments()).where('pay.id = :id', { id }).getOne();
    if (!payment) throw notFound();
    return toAdminPayment(payment);
  }

  /**
   * The console dashboard's billing figures: revenue net of refunds (in cents), paid
   * subscriptions, and the `recent` newest payments.
   */
  async dashboardFigures(recent: number): Promise<{ revenueCents: number; activeSubscriptions: number; recentPayments: AdminPayment[] }> {
    const [figures, payments] = await Promise.all([
      // Raw SQL: a sum and a count, figures an entity cannot express.
      this.database.pool.query<{ revenue_cents: string; active: number }>(
        `SELECT (SELECT coalesce(sum(amount_cents - refunded_cents), 0) FROM ${S}.payments WHERE status IN ('completed', 'refunded')) AS revenue_cents,
                (SELECT count(*)::int FROM ${S}.subscriptions) AS active`,
      ),
      this.payments().then((newest) => newest.orderBy('pay.created_at', 'DESC').addOrderBy('pay.seq', 'DESC').limit(recent).getMany()),
    ]);
    return {
      revenueCents: Number(figures.rows[0]!.revenue_cents),
      activeSubscriptions: figures.rows[0]!.active,
      recentPayments: payments.map(toAdminPayment),
    };
  }

  /** Payments with their payer (`user`, billing's payers table) and plan (`plan`), each at most one. */
  private async payments(): Promise<SelectQueryBuilder<PaymentWithNames>> {
    return (await this.readSide())
      .getRepository<PaymentWithNames>(PaymentRecord)
      .createQueryBuilder('pay')
      .leftJoinAndMapOne('pay.user', PayerRecord, 'u', 'u.user_id = pay.user_id')
      .leftJoinAndMapOne('pay.plan', PlanRecord, 'p', 'p.id = pay.plan_id');
  }

  private readSide() {
    return readSide(this.database.pool, BILLING_ENTITIES);
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

function toAdminPayment({ user, plan, ...row }: PaymentWithNames): AdminPayment {
  const fullName = [user?.first_name, user?.last_name].filter(Boolean).join(' ');
  return {
    id: row.id,
    userId: row.user_id,
    userEmail: user?.email ?? '',
    userName: fullName || user?.username || '',
    planId: row.plan_id,
    planName: plan?.name ?? row.plan_id,
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
