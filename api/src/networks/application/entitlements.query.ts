import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { EntitledModel } from '@meshwork/contracts';
import { plansOfUsers } from '../../billing';
import { modelsOfPlans } from '../../catalog';
import { DATABASE, type Database } from '../../platform/database/database';
import { unavailable } from '../../platform/domain/errors';
import type { EntitlementPlan } from '../domain/entitlement-document';

/** What a user is entitled to apart from their networks: the plan's limits and the models it allows. */
export interface UserEntitlements {
  plan: EntitlementPlan;
  models: EntitledModel[];
}

/**
 * Gathers users' plans (billing) and their plans' active models (the catalog) through their
 * public faces, for the entitlement document: one query for the plans of every user asked
 * about, one for the models of those plans, however many users. A model's `manifest_sha256`
 * is the SHA-256 of the exact body GET /api/v1/models/{name}/manifest/ answers (Express
 * writes `JSON.stringify` of the same `modelManifest` object), so a host can check the
 * manifest it fetches. No cache: the stream asks once per batch of documents, and a plan's
 * models are a handful of rows (docs/decisions.md, "Entitlements and signing").
 */
@Injectable()
export class EntitlementsQuery {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  async forUser(userId: string): Promise<UserEntitlements> {
    const mine = (await this.forUsers([userId])).get(userId);
    if (!mine) throw unavailable('Plans are not loaded yet. Please try again in a moment.');
    return mine;
  }

  /** Every user's entitlements, by user id (the stream builds thousands of documents at once); none until plans are loaded. */
  async forUsers(userIds: readonly string[]): Promise<Map<string, UserEntitlements>> {
    const plans = await plansOfUsers(this.database, userIds);
    const models = new Map(
      [
        ...(await modelsOfPlans(
          this.database,
          [...plans.values()].map((p) => p.planId),
        )),
      ].map(([planId, open]) => [
        planId,
        open
          .filter((m) => m.active)
          .map((m) => ({ name: m.name, version: m.version, manifest_sha256: sha256(JSON.stringify(m.manifest)) })),
      ]),
    );
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

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
