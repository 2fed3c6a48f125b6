import type { Pool } from 'pg';
import type { Projection } from './platform/projections/projection';
import { auditTrailProjection } from './audit/projections/audit-trail.projection';
import { billingProjection } from './billing/projections/billing.projection';
import { catalogProjection } from './catalog/projections/catalog.projection';
import { PersonalDataVault } from './identity/infrastructure/personal-data-vault';
import { USERS_PROJECTION, usersProjection } from './identity/projections/users.projection';
import { networksProjection } from './networks/projections/networks.projection';
import type { Secrets } from './platform/config/secrets';

/** Every read model, run by the projection runner (in the api in embedded mode, or by workers). */
export function buildReadModels(pool: Pool, secrets: Secrets): Projection[] {
  return [
    auditTrailProjection,
    usersProjection(new PersonalDataVault(pool, secrets.dataEncryptionKey)),
    billingProjection,
    catalogProjection,
    networksProjection,
  ];
}

export const readModelNames = [
  auditTrailProjection.name,
  USERS_PROJECTION,
  billingProjection.name,
  catalogProjection.name,
  networksProjection.name,
];
