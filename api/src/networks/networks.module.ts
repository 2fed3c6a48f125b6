import { Module } from '@nestjs/common';
import { BillingModule } from '../billing';
import { CatalogModule } from '../catalog';
import { IdentityModule } from '../identity';
import { networksCommandHandlers } from './application';
import { NetworkContext } from './application/network-context';
import { NetworkPlanLimitsFollower } from './application/network-plan-limits.follower';
import { NetworkQueries } from './application/network-queries';
import { NetworkUsageController } from './http/network-usage.controller';
import { NetworksController } from './http/networks.controller';

/**
 * The customer's own world: devices (signed in by the device authorization grant), the
 * networks they form, and the signed entitlements each desktop host obeys.
 */
@Module({
  imports: [IdentityModule, BillingModule, CatalogModule],
  controllers: [NetworksController, NetworkUsageController],
  providers: [NetworkContext, NetworkQueries, NetworkPlanLimitsFollower, ...networksCommandHandlers],
  exports: [NetworkQueries],
})
export class NetworksModule {}
