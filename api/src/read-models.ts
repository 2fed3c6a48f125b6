import type { Pool } from 'pg';
import type { Projection } from './platform/projections/projection';
import { analyticsProjection } from './analytics/projections/analytics.projection';
import { auditTrailProjection } from './audit/projections/audit-trail.projection';
import { BILLING_PROJECTION, billingProjection } from './billing/projections/billing.projection';
import { INVOICES_PROJECTION, invoicesProjection } from './billing/projections/invoices.projection';
import { catalogProjection } from './catalog/projections/catalog.projection';
import { PersonalDataVault } from './identity/infrastructure/personal-data-vault';
import { UserEventCodec } from './identity/infrastructure/user-event-codec';
import { USERS_PROJECTION, usersProjection } from './identity/projections/users.projection';
import { DEVICES_PROJECTION, devicesProjection } from './networks/projections/devices.projection';
import { deviceUsageProjection } from './networks/projections/device-usage.projection';
import { networksProjection } from './networks/projections/networks.projection';
import type { Secrets } from './platform/config/secrets';
import { webhooksProjection } from './webhooks/projections/webhooks.projection';

/** Every read model, run by the projection runner (in the api in embedded mode, or by workers). */
export function buildReadModels(pool: Pool, secrets: Secrets): Projection[] {
  // One vault for every read model that decrypts personal fields: each user's key is cached once.
  const vault = new PersonalDataVault(pool, secrets.dataEncryptionKey);
  return [
    analyticsProjection,
    auditTrailProjection,
    usersProjection(vault),
    // Billing keeps its payers' emails and names from identity's events, decrypted by identity's codec.
    billingProjection(new UserEventCodec(vault)),
    invoicesProjection,
    catalogProjection,
    devicesProjection(vault),
    deviceUsageProjection,
    networksProjection,
    webhooksProjection,
  ];
}

export const readModelNames = [
  analyticsProjection.name,
  auditTrailProjection.name,
  USERS_PROJECTION,
  BILLING_PROJECTION,
  INVOICES_PROJECTION,
  catalogProjection.name,
  DEVICES_PROJECTION,
  deviceUsageProjection.name,
  networksProjection.name,
  webhooksProjection.name,
];
