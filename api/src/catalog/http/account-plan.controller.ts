import { Controller, Get, UseGuards } from '@nestjs/common';
import { PlanInfo, UserDashboard } from '@meshwork/contracts';
import { BillingQueries } from '../../billing';
import { AuthGuard, type Caller, CurrentCaller, toUser } from '../../identity';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { CatalogQueries } from '../application/catalog.query';

/**
 * The signed-in user's plan and home page (spec section 7, "Plan and downloads" and
 * "Users"): billing's plan and payments with the catalog's models and downloads. It lives in
 * the catalog because the catalog depends on billing, never the other way. The usage figures
 * (networks in use) are the networks context's (NetworkUsageController).
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

  /** The plan info, with the models the caller's plan includes (from the catalog). */
  private async planInfo(caller: Caller): Promise<PlanInfo> {
    const info = await this.queries.planInfo(caller.userId);
    return { ...info, available_models: await this.catalog.availableTo(info.plan_slug) };
  }
}
