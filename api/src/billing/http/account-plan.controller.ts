import { Body, Controller, Get, Patch, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { centsOf, moneyText, PlanInfo, Preferences, PreferencesUpdate, UsageStats, UserDashboard } from '@meshwork/contracts';
import { toUser } from '../../identity/application/user-directory';
import { AuthGuard, type Caller, CurrentCaller } from '../../identity/http/auth.guard';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { ZodPipe } from '../../platform/http/validation';
import { BillingQueries } from '../application/billing-queries';
import { UpdatePreferences } from '../application/update-preferences.handler';
import { CatalogQueries } from '../../catalog/application/catalog-queries';

/**
 * The signed-in user's plan and home page (spec section 7, "Plan and downloads" and
 * "Users"); the plan's models come from the catalog.
 */
@Tag('account')
@Controller()
@UseGuards(AuthGuard)
export class AccountPlanController {
  constructor(
    private readonly queries: BillingQueries,
    private readonly commands: CommandBus,
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

  @Patch('users/preferences')
  @Route({ response: Preferences })
  async updatePreferences(
    @CurrentCaller() caller: Caller,
    @Body(new ZodPipe(PreferencesUpdate)) body: z.output<typeof PreferencesUpdate>,
  ): Promise<Preferences> {
    const changes = { onboardingCompleted: body.onboarding_completed, showOnboarding: body.show_onboarding };
    await this.commands.execute(new UpdatePreferences(caller.userId, changes, new Date()));
    return this.queries.preferences(caller.userId);
  }

  /** The plan info, with the models the caller's plan includes (from the catalog). */
  private async planInfo(caller: Caller): Promise<PlanInfo> {
    const info = await this.queries.planInfo(caller.userId);
    return { ...info, available_models: await this.catalog.availableTo(info.plan_slug) };
  }
}
