import { Module } from '@nestjs/common';
import { BillingModule } from '../billing';
import { CatalogModule } from '../catalog';
import { IdentityModule } from '../identity';
import { networksCommandHandlers } from './application';

/**
 * The customer's own world: devices (signed in by the device authorization grant), the
 * networks they form, and the signed entitlements each desktop host obeys.
 */
@Module({
  imports: [IdentityModule, BillingModule, CatalogModule],
  controllers: [],
  providers: [...networksCommandHandlers],
  exports: [],
})
export class NetworksModule {}
