import { Controller, Get, Inject, UseGuards } from '@nestjs/common';
import { centsOf, moneyText, UsageStats } from '@meshwork/contracts';
import { BillingQueries, plansOfUsers } from '../../billing';
import { CatalogQueries } from '../../catalog';
import { AuthGuard, type Caller, CurrentCaller } from '../../identity';
import { DATABASE, type Database } from '../../platform/database/database';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { NetworkContext } from '../application/network-context';
import { NetworkQueries } from '../application/network.query';
import { DeviceClock } from '../application/devices/device-clock';
import { DeviceUsageQuery } from '../application/device-usage.query';
import { usageWindowDays } from '../domain/usage-window';

/**
 * The dashboard's usage figures. They live here, the last context in the one-way order
 * (identity <- billing <- catalog <- networks), because only here can networks in use be
 * counted beside billing's payments and the catalog's downloads.
 */
@Tag('account')
@Controller()
@UseGuards(AuthGuard)
export class NetworkUsageController {
  constructor(
    private readonly billing: BillingQueries,
    private readonly catalog: CatalogQueries,
    private readonly context: NetworkContext,
    private readonly networks: NetworkQueries,
    private readonly usage: DeviceUsageQuery,
    private readonly clock: DeviceClock,
    @Inject(DATABASE) private readonly database: Database,
  ) {}

  @Get('users/usage-stats')
  @Route({ response: UsageStats, errors: [503] })
  async usageStats(@CurrentCaller() caller: Caller): Promise<UsageStats> {
    const plan = (await plansOfUsers(this.database, [caller.userId])).get(caller.userId);
    const [limits, used, payments, downloads, usage] = await Promise.all([
      this.context.limitsOf(caller.userId),
      this.networks.count(caller.userId),
      this.billing.payments(caller.userId),
      this.catalog.downloadHistory(caller.userId, new Date()),
      this.usage.usage(caller.userId, usageWindowDays(plan), this.clock.now()),
    ]);
    const completed = payments.filter((p) => p.status === 'completed' || p.status === 'refunded');
    const paidCents = completed.reduce((sum, p) => sum + centsOf(p.amount) - centsOf(p.refunded_amount), 0);
    return {
      networks: { used, limit: limits.maxNetworks },
      clients_per_network: { limit: limits.maxClientsPerNetwork },
      models: { available: limits.allowedModels.length },
      downloads: { total: downloads.total, last_30_days: downloads.last_30_days },
      payments: { total_paid: moneyText(paidCents), count: completed.length },
      usage,
    };
  }
}
