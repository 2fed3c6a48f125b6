import { Inject, Injectable } from '@nestjs/common';
import type { EntitledModel } from '@meshwork/contracts';
import { plansOfUsers } from '../../billing';
import { DATABASE, type Database } from '../../platform/database/database';
import type { EntitlementPlan } from '../domain/entitlement-document';
import { PlanModelsCache } from './entitlement-stream/plan-models.cache';

/** What a user is entitled to apart from their networks: the plan's limits and the models it allows. */
export interface UserEntitlements {
  plan: EntitlementPlan;
  models: EntitledModel[];
}

/**
 * Gathers users' plans (billing) and allowed models (the catalog) through their public
 * faces, for the entitlement document: one query for the plans of every user asked about,
 * and the plans' models from PlanModelsCache. A model's `manifest_sha256` is the SHA-256 of
 * the exact body GET /api/v1/models/{name}/manifest/ answers (Express writes
 * `JSON.stringify` of the same `modelManifest` object), so a host can check the manifest it
 * fetches.
 */
@Injectable()
export class EntitlementsQuery {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    private readonly planModels: PlanModelsCache,
  ) {}

  async forUser(userId: string): Promise<UserEntitlements> {
    return (await this.forUsers([userId])).get(userId)!;
  }

  /** Every user's entitlements, by user id (the stream builds thousands of documents at once). */
  async forUsers(userIds: readonly string[]): Promise<Map<string, UserEntitlements>> {
    const plans = await plansOfUsers(this.database, userIds);
    const models = await this.planModels.of([...new Set([...plans.values()].map((p) => p.planId))]);
    const entitlements = new Map<string, UserEntitlements>();
    for (const [userId, plan] of plans) {
      entitlements.set(userId, {
        plan: {
          slug: plan.planId,
          name: plan.planName,
          maxNetworks: plan.maxNetworks,
          maxClientsPerNetwork: plan.maxClientsPerNetwork,
          downloadAccess: plan.downloadAccess,
          expiresAt: plan.expiresAt,
        },
        models: models.get(plan.planId)!,
      });
    }
    return entitlements;
  }
}
