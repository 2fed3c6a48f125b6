import { Module } from '@nestjs/common';
import { BillingModule } from '../billing';
import { IdentityModule } from '../identity';
import { StorageController } from '../platform/storage/storage.controller';
import { catalogCommandHandlers } from './application';
import { BuiltInReleases } from './application/built-in-releases';
import { CatalogAdmin } from './application/catalog-admin';
import { CatalogContext } from './application/catalog-context';
import { CatalogHistory } from './application/catalog-history';
import { CatalogQueries } from './application/catalog.query';
import { DesktopReleases } from './application/desktop-releases';
import { ModelPlans } from './application/model-plans';
import { ResumableUploads } from './application/resumable-uploads';
import { StorageSweeper } from './application/storage-sweeper';
import { AccountPlanController } from './http/account-plan.controller';
import { AdminModelsController } from './http/admin-models.controller';
import { DownloadsController } from './http/downloads.controller';
import { ModelsController } from './http/models.controller';

/** AI models, their files and plan access, downloads, and desktop releases. */
@Module({
  imports: [IdentityModule, BillingModule],
  controllers: [AccountPlanController, AdminModelsController, ModelsController, DownloadsController, StorageController],
  providers: [
    CatalogContext,
    CatalogHistory,
    CatalogQueries,
    BuiltInReleases,
    DesktopReleases,
    ModelPlans,
    ResumableUploads,
    CatalogAdmin,
    StorageSweeper,
    ...catalogCommandHandlers,
  ],
  exports: [CatalogHistory, CatalogQueries, CatalogAdmin, StorageSweeper],
})
export class CatalogModule {}
