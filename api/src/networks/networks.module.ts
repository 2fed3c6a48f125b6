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

/**
 * The customer's own world: devices (signed in by the device authorization grant), the
 * networks they form, and the signed entitlements each desktop host obeys.
 */
@Module({
  imports: [IdentityModule, BillingModule, CatalogModule],
  controllers: [SigningKeysController, DeviceGrantController, DeviceActivationController, DevicesController, DevicesAdminController],
  providers: [
    ...networksCommandHandlers,
    EntitlementSigner,
    EntitlementsQuery,
    DeviceClock,
    DevicesContext,
    DeviceActivations,
    DeviceDirectory,
  ],
  exports: [EntitlementSigner, EntitlementsQuery, DeviceDirectory],
})
export class NetworksModule {}
