import { checkpointMigrations } from './platform/projections/checkpoints.schema';
import { personalDataMigrations } from './identity/infrastructure/personal-data-vault';
import { sessionMigrations } from './identity/infrastructure/session-store';
import { apiTokenMigrations } from './identity/infrastructure/api-token-store';
import type { Migration } from './platform/database/migrations';
import { logChainMigrations } from './platform/event-store/chain/log-chain';
import { eventStoreMigrations } from './platform/event-store/event-store.schema';
import { simulatedCheckoutMigrations } from './platform/payments/payment-provider';
import { webhookMigrations } from './billing/infrastructure/stripe-webhooks';
import { catalogMigrations } from './catalog/application/catalog-context';
import { deviceGrantMigrations } from './networks/infrastructure/device-grant-limits';
import { entitlementRevisionMigrations } from './networks/infrastructure/entitlement-revisions';
import { webhookDeliveryMigrations } from './webhooks/infrastructure/deliveries.schema';

/** Schema of the write side and the runner's bookkeeping; read models create their own tables. */
export const migrations: Migration[] = [
  ...eventStoreMigrations,
  ...logChainMigrations,
  ...checkpointMigrations,
  ...personalDataMigrations,
  ...sessionMigrations,
  ...apiTokenMigrations,
  ...simulatedCheckoutMigrations,
  ...webhookMigrations,
  ...catalogMigrations,
  ...deviceGrantMigrations,
  ...entitlementRevisionMigrations,
  ...webhookDeliveryMigrations,
];
