import { Inject, Injectable } from '@nestjs/common';
import type { AdminDashboardStats } from '@meshwork/contracts';
import { BillingConsoleQueries } from '../../billing';
import { USER_PLANS, UserDirectory, type UserPlans } from '../../identity';
import { AdminNetworkQueries } from '../../networks';

/**
 * The console dashboard's figures (spec "Dashboard stats"), each asked of the context that
 * owns it: sign-ups of identity's directory, revenue, subscriptions and payments of billing's
 * console queries, devices and networks (issue 12) of the networks context. The payments'
 * emails are looked up in identity's directory by id, not joined.
 */
@Injectable()
export class AdminDashboard {
  constructor(
    private readonly directory: UserDirectory,
    private readonly networks: AdminNetworkQueries,
    private readonly billing: BillingConsoleQueries,
    @Inject(USER_PLANS) private readonly plans: UserPlans,
  ) {}

  async stats(): Promise<AdminDashboardStats> {
    const [signUps, billing, recentUsers, networkFigures] = await Promise.all([
      this.directory.signUps(),
      this.billing.dashboardFigures(5),
      this.directory.newest(5),
      this.networks.figures(),
    ]);
    const names = await this.directory.namesOf(billing.recentPayments.map((p) => p.userId));
    const plans = await this.plans.of(recentUsers.map((u) => u.id));
    const { total, thisMonth, lastMonth } = signUps;
    return {
      totalUsers: total,
      totalRevenue: billing.revenueCents / 100,
      activeSubscriptions: billing.activeSubscriptions,
      monthlyGrowth: lastMonth === 0 ? (thisMonth > 0 ? 100 : 0) : Math.round(((thisMonth - lastMonth) / lastMonth) * 1000) / 10,
      recentUsers: recentUsers.map((u) => ({
        id: u.id,
        username: u.username ?? '',
        email: u.email ?? '',
        plan: plans.get(u.id)!.plan_id,
        created_at: u.created_at.toISOString(),
      })),
      recentPayments: billing.recentPayments.map((p) => ({
        id: p.id,
        // A deleted user has no email ('').
        user: names.get(p.userId)?.email ?? '',
        amount: p.amount,
        plan: p.planName,
        date: p.createdDate,
        status: p.status,
      })),
      ...networkFigures,
    };
  }
}
