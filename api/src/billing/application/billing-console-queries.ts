import { Inject, Injectable } from '@nestjs/common';
import type { AdminPayment, AdminPlan } from '@meshwork/contracts';
import { readModelSchema } from '../../platform/projections/projection';
import { USERS_PROJECTION } from '../../identity';
import { DATABASE, type Database } from '../../platform/database/database';
import { notFound } from '../../platform/domain/errors';
import type { ListQuery } from '../../platform/http/react-admin-list';
import { BILLING_SCHEMA as S, iso, type PaymentRow, type PlanRow, plansWithModels, toPlan } from './billing-rows';

const USERS = `${readModelSchema(USERS_PROJECTION)}.users`;

/** The staff console's reads of the billing read model: plans with subscriber counts, and payments. */
@Injectable()
export class BillingConsoleQueries {
  static readonly sortablePayments = ['createdDate', 'amount', 'status', 'userEmail', 'planName'] as const;

  constructor(@Inject(DATABASE) private readonly database: Database) {}

  private get pool() {
    return this.database.pool;
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
