import type { Pool } from 'pg';
import type { Projection } from './platform/projections/projection';
import { auditTrailProjection } from './audit/projections/audit-trail.projection';
import { BILLING_PROJECTION, billingProjection } from './billing/projections/billing.projection';
import { catalogProjection } from './catalog/projections/catalog.projection';
import { PersonalDataVault } from './identity/infrastructure/personal-data-vault';
import { UserEventCodec } from './identity/infrastructure/user-event-codec';
import { USERS_PROJECTION, usersProjection } from './identity/projections/users.projection';
import type { Secrets } from './platform/config/secrets';

/** Every read model, run by the projection runner (in the api in embedded mode, or by workers). */
export function buildReadModels(pool: Pool, secrets: Secrets): Projection[] {
  return [
    auditTrailProjection,
    usersProjection(new PersonalDataVault(pool, secrets.dataEncryptionKey)),
    // Billing keeps its payers' emails and names from identity's events, decrypted by identity's codec.
    billingProjection(new UserEventCodec(new PersonalDataVault(pool, secrets.dataEncryptionKey))),
    catalogProjection,
  ];
}

export const readModelNames = [auditTrailProjection.name, USERS_PROJECTION, BILLING_PROJECTION, catalogProjection.name];
