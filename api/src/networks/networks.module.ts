import { Module } from '@nestjs/common';
import { BillingModule } from '../billing';
import { CatalogModule } from '../catalog';
import { IdentityModule } from '../identity';
import { networksCommandHandlers } from './application';
import { EntitlementsQuery } from './application/entitlements.query';
import { SigningKeysController } from './http/signing-keys.controller';
import { EntitlementSigner } from './infrastructure/entitlement-signer';
import { DeviceActivations } from './application/devices/device-activations';
import { DeviceClock } from './application/devices/device-clock';
import { DeviceDirectory } from './application/devices/device-directory';
import { DevicesContext } from './application/devices/devices-context';
import { DeviceActivationController } from './http/device-activation.controller';
import { DeviceGrantController } from './http/device-grant.controller';
import { DevicesAdminController } from './http/devices-admin.controller';
import { DevicesController } from './http/devices.controller';
import { DeviceEntitlementsController } from './http/device-entitlements.controller';
import { DeviceEntitlements } from './application/device-entitlements.query';
import { NetworkContext } from './application/network-context';
import { NetworksHistory } from './application/networks-history';
import { NetworkPlanLimitsFollower } from './application/network-plan-limits.follower';
import { NetworkQueries } from './application/network.query';
import { NetworkUsageController } from './http/network-usage.controller';
import { DeviceUsageController } from './http/device-usage.controller';
import { DeviceUsageQuery } from './application/device-usage.query';
import { NetworksController } from './http/networks.controller';
import { AdminNetworkQueries } from './application/admin-network.query';
import { NetworksAdminController } from './http/networks-admin.controller';
import { NetworkMembershipController } from './http/network-membership.controller';
import { JoinAttempts } from './application/membership/join-attempts';
import { DeviceEntitlementStreamController } from './http/device-entitlement-stream.controller';
import { EntitlementStreamTail } from './application/entitlement-stream/entitlement-stream.tail';

/**
 * The customer's own world: devices (signed in by the device authorization grant), the
 * networks they form, and the signed entitlements each desktop host obeys.
 */
@Module({
  imports: [IdentityModule, BillingModule, CatalogModule],
  controllers: [
    SigningKeysController,
    DeviceGrantController,
    DeviceActivationController,
    DevicesController,
    DevicesAdminController,
    DeviceEntitlementsController,
    NetworksController,
    NetworkUsageController,
    DeviceUsageController,
    NetworksAdminController,
    DeviceEntitlementStreamController,
    NetworkMembershipController,
  ],
  providers: [
    ...networksCommandHandlers,
    EntitlementSigner,
    EntitlementsQuery,
    DeviceClock,
    DevicesContext,
    DeviceActivations,
    DeviceDirectory,
    NetworkContext,
    NetworksHistory,
    NetworkQueries,
    NetworkPlanLimitsFollower,
    DeviceEntitlements,
    AdminNetworkQueries,
    EntitlementStreamTail,
    JoinAttempts,
    DeviceUsageQuery,
  ],
  exports: [EntitlementSigner, EntitlementsQuery, DeviceDirectory, NetworkQueries, NetworksHistory],
})
export class NetworksModule {}
