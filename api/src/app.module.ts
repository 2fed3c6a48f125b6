import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { ProjectionsModule } from './platform/projections/projections.module';
import { AccountsModule } from './accounts/accounts.module';
import { AdminModule } from './admin/admin.module';
import { AnalyticsModule } from './analytics/analytics.module';
import { AuditModule } from './audit/audit.module';
import { BillingModule } from './billing/billing.module';
import { CatalogModule } from './catalog/catalog.module';
import { ContactModule } from './contact/contact.module';
import { HealthModule } from './health/health.module';
import { IdentityModule } from './identity/identity.module';
import { NetworksModule } from './networks/networks.module';
import { OperationsModule } from './operations/operations.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import type { AppConfig } from './platform/config/config';
import { AllExceptionsFilter } from './platform/http/all-exceptions.filter';
import { PlatformModule } from './platform/platform.module';
import { migrations } from './migrations';
import { buildReadModels } from './read-models';

/** The api: one module per bounded context, on the shared platform. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot(config, 'meshwork-api', migrations),
        CqrsModule.forRoot(),
        HealthModule,
        AccountsModule,
        IdentityModule,
        BillingModule,
        CatalogModule,
        NetworksModule,
        AdminModule,
        AnalyticsModule,
        AuditModule,
        ContactModule,
        OperationsModule,
        WebhooksModule,
        // Embedded mode runs the projections here; full mode may leave them to workers.
        ...(config.PROJECTIONS_IN_PROCESS ? [ProjectionsModule.forRoot(buildReadModels)] : []),
      ],
      providers: [{ provide: APP_FILTER, useClass: AllExceptionsFilter }],
    };
  }
}
