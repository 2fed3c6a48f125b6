import { Controller, Get, Inject, UseGuards } from '@nestjs/common';
import { AdminDashboardStats } from '../../../../contracts/src/billing/billing.contract';
import { readModelSchema } from '../../platform/projections/projection';
import { BILLING_PROJECTION } from '../../billing/projections/billing.projection';
import { USERS_WITH_PLAN } from '../../identity/application/user-directory';
import { StaffGuard } from '../../identity/http/auth.guard';
import { DATABASE, type Database } from '../../platform/database/database';
import { Route, Tag } from '../../platform/http/openapi/route-contract';

const BILLING = readModelSchema(BILLING_PROJECTION);

/** The console dashboard's figures (spec "Dashboard stats"), from the read models. */
@Tag('admin-panel')
@Controller('admin-panel/dashboard')
@UseGuards(StaffGuard)
export class AdminDashboardController {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  @Get()
  @Route({ response: AdminDashboardStats })
  async stats(): Promise<AdminDashboardStats> {
    const pool = this.database.pool;
    const [totals, users, payments] = await Promise.all([
      pool.query<{ total_users: number; this_month: number; last_month: number; revenue_cents: string; active: number }>(
        `SELECT (SELECT count(*)::int FROM ${USERS_WITH_PLAN}) AS total_users,
                (SELECT count(*)::int FROM ${USERS_WITH_PLAN} WHERE created_at >= date_trunc('month', now())) AS this_month,
                (SELECT count(*)::int FROM ${USERS_WITH_PLAN}
                  WHERE created_at >= date_trunc('month', now()) - interval '1 month' AND created_at < date_trunc('month', now())) AS last_month,
                (SELECT coalesce(sum(amount_cents - refunded_cents), 0) FROM ${BILLING}.payments WHERE status IN ('completed', 'refunded')) AS revenue_cents,
                (SELECT count(*)::int FROM ${BILLING}.subscriptions) AS active`,
      ),
      pool.query(`SELECT id, username, email, plan_id, created_at FROM ${USERS_WITH_PLAN} ORDER BY created_at DESC LIMIT 5`),
      pool.query(
        `SELECT pay.id, coalesce(u.email, '') AS email, pay.amount_cents, coalesce(p.name, pay.plan_id) AS plan, pay.created_at, pay.status
           FROM ${BILLING}.payments pay LEFT JOIN ${USERS_WITH_PLAN.replace(/ AS users$/, ' AS u')} ON u.id = pay.user_id
           LEFT JOIN ${BILLING}.plans p ON p.id = pay.plan_id ORDER BY pay.created_at DESC, pay.seq DESC LIMIT 5`,
      ),
    ]);
    const t = totals.rows[0]!;
    return {
      totalUsers: t.total_users,
      totalRevenue: Number(t.revenue_cents) / 100,
      activeSubscriptions: t.active,
      monthlyGrowth:
        t.last_month === 0 ? (t.this_month > 0 ? 100 : 0) : Math.round(((t.this_month - t.last_month) / t.last_month) * 1000) / 10,
      recentUsers: users.rows.map((u) => ({
        id: u.id,
        username: u.username ?? '',
        email: u.email ?? '',
        plan: u.plan_id,
        created_at: u.created_at.toISOString(),
      })),
      recentPayments: payments.rows.map((p) => ({
        id: p.id,
        user: p.email,
        amount: p.amount_cents / 100,
        plan: p.plan,
        date: p.created_at.toISOString(),
        status: p.status,
      })),
    };
  }
}
