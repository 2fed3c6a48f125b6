import { Module } from '@nestjs/common';
import { BillingModule } from '../billing';
import { CatalogModule } from '../catalog';
import { IdentityModule } from '../identity';
import { NetworksModule } from '../networks';
import { AuditIntegrityQuery } from './application/audit-integrity.query';
import { AuditTrail } from './application/audit-trail.query';
import { ResourceHistory } from './application/resource-history.query';
import { AuditTrailController } from './http/audit-trail.controller';

/** The event history for staff and auditors (the audit trail read model is built with the others, see read-models.ts). */
@Module({
  imports: [IdentityModule, BillingModule, CatalogModule, NetworksModule],
  controllers: [AuditTrailController],
  providers: [AuditTrail, AuditIntegrityQuery, ResourceHistory],
})
export class AuditModule {}
