import { Module } from '@nestjs/common';
import { BillingModule } from '../billing';
import { CatalogModule } from '../catalog';
import { IdentityModule } from '../identity';
import { networksCommandHandlers } from './application';
import { EntitlementsQuery } from './application/entitlements.query';
import { SigningKeysController } from './http/signing-keys.controller';
import { EntitlementSigner } from './infrastructure/entitlement-signer';

/**
 * The customer's own world: devices (signed in by the device authorization grant), the
 * networks they form, and the signed entitlements each desktop host obeys.
 */
@Module({
  imports: [IdentityModule, BillingModule, CatalogModule],
  controllers: [SigningKeysController],
  providers: [...networksCommandHandlers, EntitlementSigner, EntitlementsQuery],
  exports: [EntitlementSigner, EntitlementsQuery],
})
export class NetworksModule {}
