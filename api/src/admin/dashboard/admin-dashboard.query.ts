import { Inject, Injectable } from '@nestjs/common';
import type { AdminDashboardStats } from '@meshwork/contracts';
import { readModelSchema } from '../../platform/projections/projection';
import { BILLING_PROJECTION } from '../../billing';
import { In, type Repository } from 'typeorm';
import { USER_PLANS, type UserPlans, USERS_ENTITIES, USERS_TABLE, UserRecord } from '../../identity';
import { AdminNetworkQueries } from '../../networks';
import { DATABASE, type Database } from '../../platform/database/database';
import { readSide } from '../../platform/database/read-side';

const BILLING = readModelSchema(BILLING_PROJECTION);

interface Payment {
  id: string;
  user_id: string;
  amount_cents: number;
  plan: string;
  created_at: Date;
  status: AdminDashboardStats['recentPayments'][number]['status'];
}

/**
 * The console dashboard's figures (spec "Dashboard stats"), with issue 12's device and network
 * counts asked of the networks context. Each query reads one context's read model; the
 * payments' emails are looked up in the users read model by id, not joined.
 */
@Injectable()
export class AdminDashboard {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    private readonly networks: AdminNetworkQueries,
    @Inject(USER_PLANS) private readonly plans: UserPlans,
  ) {}

  async stats(): Promise<AdminDashboardStats> {
    const pool = this.database.pool;
    const [users, billing, recentUsers, recentPayments, networkFigures] = await Promise.all([
      pool.query<{ total: number; this_month: number; last_month: number }>(
        `SELECT count(*)::int AS total,
                count(*) FILTER (WHERE created_at >= date_trunc('month', now()))::int AS this_month,
                count(*) FILTER (WHERE created_at >= date_trunc('month', now()) - interval '1 month'
                                   AND created_at < date_trunc('month', now()))::int AS last_month
           FROM ${USERS_TABLE}`,
      ),
      pool.query<{ revenue_cents: string; active: number }>(
        `SELECT (SELECT coalesce(sum(amount_cents - refunded_cents), 0) FROM ${BILLING}.payments WHERE status IN ('completed', 'refunded')) AS revenue_cents,
                (SELECT count(*)::int FROM ${BILLING}.subscriptions) AS active`,
      ),
      this.users().then((users) =>
        users.find({ select: { id: true, username: true, email: true, created_at: true }, order: { created_at: 'DESC' }, take: 5 }),
      ),
      pool.query<Payment>(
        `SELECT pay.id, pay.user_id, pay.amount_cents, coalesce(p.name, pay.plan_id) AS plan, pay.created_at, pay.status
           FROM ${BILLING}.payments pay LEFT JOIN ${BILLING}.plans p ON p.id = pay.plan_id
          ORDER BY pay.created_at DESC, pay.seq DESC LIMIT 5`,
      ),
      this.networks.figures(),
    ]);
    const emails = await this.emailsOf(recentPayments.rows.map((p) => p.user_id));
    const plans = await this.plans.of(recentUsers.map((u) => u.id));
    const { total, this_month: thisMonth, last_month: lastMonth } = users.rows[0]!;
    return {
      totalUsers: total,
      totalRevenue: Number(billing.rows[0]!.revenue_cents) / 100,
      activeSubscriptions: billing.rows[0]!.active,
      monthlyGrowth: lastMonth === 0 ? (thisMonth > 0 ? 100 : 0) : Math.round(((thisMonth - lastMonth) / lastMonth) * 1000) / 10,
      recentUsers: recentUsers.map((u) => ({
        id: u.id,
        username: u.username ?? '',
        email: u.email ?? '',
        plan: plans.get(u.id)!.plan_id,
        created_at: u.created_at.toISOString(),
      })),
      recentPayments: recentPayments.rows.map((p) => ({
        id: p.id,
        user: emails.get(p.user_id) ?? '',
        amount: p.amount_cents / 100,
        plan: p.plan,
        date: p.created_at.toISOString(),
        status: p.status,
      })),
      ...networkFigures,
    };
  }

  /** Emails by user id; a deleted user has none (''). */
  private async emailsOf(userIds: string[]): Promise<Map<string, string>> {
    if (userIds.length === 0) return new Map();
    const rows = await (await this.users()).find({ select: { id: true, email: true }, where: { id: In(userIds) } });
    return new Map(rows.map((r) => [r.id, r.email ?? '']));
  }

  private async users(): Promise<Repository<UserRecord>> {
    return (await readSide(this.database.pool, USERS_ENTITIES)).getRepository(UserRecord);
  }
}
