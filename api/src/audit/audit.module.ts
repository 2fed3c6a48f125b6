import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity';
import { AuditIntegrityQuery } from './application/audit-integrity.query';
import { AuditTrail } from './application/audit-trail.query';
import { AuditTrailController } from './http/audit-trail.controller';

/** The event history for staff and auditors (the audit trail read model is built with the others, see read-models.ts). */
@Module({
  imports: [IdentityModule],
  controllers: [AuditTrailController],
  providers: [AuditTrail, AuditIntegrityQuery],
})
export class AuditModule {}
