import { Controller, Get, UseGuards } from '@nestjs/common';
import { centsOf, moneyText, PlanInfo, UsageStats, UserDashboard } from '@meshwork/contracts';
import { BillingQueries } from '../../billing';
import { AuthGuard, type Caller, CurrentCaller, toUser } from '../../identity';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { CatalogQueries } from '../application/catalog-queries';

/**
 * The signed-in user's plan and home page (spec section 7, "Plan and downloads" and
 * "Users"): billing's plan and payments with the catalog's models and downloads. It lives in
 * the catalog because the catalog depends on billing, never the other way.
 */
@Tag('account')
@Controller()
@UseGuards(AuthGuard)
export class AccountPlanController {
  constructor(
    private readonly queries: BillingQueries,
    private readonly catalog: CatalogQueries,
  ) {}

  @Get(['plan', 'account/plan'])
  @Route({ summary: 'What the plan allows now, the models it includes, and the upgrades on offer.', response: PlanInfo, errors: [503] })
  plan(@CurrentCaller() caller: Caller): Promise<PlanInfo> {
    return this.planInfo(caller);
  }

  @Get('users/dashboard')
  @Route({ response: UserDashboard, errors: [503] })
  async dashboard(@CurrentCaller() caller: Caller): Promise<UserDashboard> {
    const [planInfo, subscription, payments, preferences] = await Promise.all([
      this.planInfo(caller),
      this.queries.subscription(caller.userId),
      this.queries.payments(caller.userId, 5),
      this.queries.preferences(caller.userId),
    ]);
    return { user: toUser(caller.user), plan_info: planInfo, subscription, recent_payments: payments, preferences };
  }

  @Get('users/usage-stats')
  @Route({ response: UsageStats, errors: [503] })
  async usageStats(@CurrentCaller() caller: Caller): Promise<UsageStats> {
    const [planInfo, payments, downloads] = await Promise.all([
      this.planInfo(caller),
      this.queries.payments(caller.userId),
      this.catalog.downloadHistory(caller.userId, new Date()),
    ]);
    const completed = payments.filter((p) => p.status === 'completed' || p.status === 'refunded');
    const paidCents = completed.reduce((sum, p) => sum + centsOf(p.amount) - centsOf(p.refunded_amount), 0);
    return {
      // Networks arrive with their own context; until then none is used.
      networks: { used: 0, limit: planInfo.permissions.max_networks },
      clients_per_network: { limit: planInfo.permissions.max_clients_per_network },
      models: { available: planInfo.available_models.length },
      downloads: { total: downloads.total, last_30_days: downloads.last_30_days },
      payments: { total_paid: moneyText(paidCents), count: completed.length },
    };
  }

  /** The plan info, with the models the caller's plan includes (from the catalog). */
  private async planInfo(caller: Caller): Promise<PlanInfo> {
    const info = await this.queries.planInfo(caller.userId);
    return { ...info, available_models: await this.catalog.availableTo(info.plan_slug) };
  }
}
