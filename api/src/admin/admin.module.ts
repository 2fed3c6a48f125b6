import { Module } from '@nestjs/common';
import { BillingModule } from '../billing';
import { CatalogModule } from '../catalog';
import { IdentityModule } from '../identity';
import { AdminNetworkQueries } from '../networks';
import { AdminDashboardController } from './dashboard/admin-dashboard.controller';
import { AdminDashboard } from './dashboard/admin-dashboard.query';
import { AdminInvoicesController } from './invoices/admin-invoices.controller';
import { AdminPaymentsController } from './payments/admin-payments.controller';
import { adminPlanCommandHandlers } from './plans';
import { AdminPlansController } from './plans/admin-plans.controller';
import { AdminUsersController } from './users/admin-users.controller';
import { AdminUsers } from './users/admin-users.query';

/** The staff console's resources (read side), in react-admin's REST dialect. */
@Module({
  imports: [IdentityModule, BillingModule, CatalogModule],
  controllers: [AdminUsersController, AdminPlansController, AdminPaymentsController, AdminDashboardController, AdminInvoicesController],
  // The networks context's console reads: a stateless query over its read models, no module state.
  providers: [AdminUsers, AdminDashboard, AdminNetworkQueries, ...adminPlanCommandHandlers],
})
export class AdminModule {}
