import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntitledModel } from '@meshwork/contracts';
import { BillingQueries } from '../../billing';
import { CatalogQueries, modelManifest } from '../../catalog';
import type { EntitlementPlan } from '../domain/entitlement-document';

/** What a user is entitled to apart from their networks: the plan's limits and the models it allows. */
export interface UserEntitlements {
  plan: EntitlementPlan;
  models: EntitledModel[];
}

/**
 * Gathers a user's plan (billing) and allowed models (the catalog) through their public
 * faces, for the entitlement document. A model's `manifest_sha256` is the SHA-256 of the
 * exact body GET /api/v1/models/{name}/manifest/ answers (Express writes `JSON.stringify`
 * of the same `modelManifest` object), so a host can check the manifest it fetches.
 */
@Injectable()
export class EntitlementsQuery {
  constructor(
    private readonly billing: BillingQueries,
    private readonly catalog: CatalogQueries,
  ) {}

  async forUser(userId: string): Promise<UserEntitlements> {
    const info = await this.billing.planInfo(userId);
    // The catalog's own access rule (active, open to the plan), as GET /models/ and the manifest apply it.
    const models = (await this.catalog.adminModels()).filter((m) => m.status === 'active' && m.allowedPlans.includes(info.plan_slug));
    return {
      plan: {
        slug: info.plan_slug,
        name: info.plan_name,
        maxNetworks: info.permissions.max_networks,
        maxClientsPerNetwork: info.permissions.max_clients_per_network,
        downloadAccess: info.download_info.download_access,
        expiresAt: info.expires_at,
      },
      models: models.map((model) => ({
        name: model.name,
        version: model.version,
        manifest_sha256: createHash('sha256')
          .update(JSON.stringify(modelManifest(model)))
          .digest('hex'),
      })),
    };
  }
}
