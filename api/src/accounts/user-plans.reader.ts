import { Inject, Injectable } from '@nestjs/common';
import { type FREE_PLAN_ID, plansOfUsers } from '../billing';
import { modelsOfPlans } from '../catalog';
import type { UserPlan, UserPlans } from '../identity';
import { DATABASE, type Database } from '../platform/database/database';

/** Billing's id of the free plan, checked against billing's own constant at compile time. */
const FREE_PLAN: typeof FREE_PLAN_ID = 'free';

/**
 * The plan part of the user object (identity's UserPlans): the plan and its client limit as
 * billing grants them (plansOfUsers), and the names of the plan's models that may be
 * downloaded now, as the catalog records them (modelsOfPlans). Two queries for any number
 * of users. Until billing's read model holds the free plan (a fresh installation's first
 * moments) a user is on the free plan with a limit of 0.
 *
 * Cached user objects are forgotten through identity_changed: billing's read model announces
 * a user's EntitlementsChanged and a change to the free plan's limit, the catalog's a change
 * to a downloadable model, each in the transaction that changes what this reads.
 */
@Injectable()
export class UserPlansReader implements UserPlans {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  async of(userIds: readonly string[]): Promise<Map<string, UserPlan>> {
    const plans = await plansOfUsers(this.database, userIds);
    // Before the free plan is in the read model: no clients, no API (nothing to grant yet).
    const planOf = (userId: string) =>
      plans.get(userId) ?? { planId: FREE_PLAN, maxClientsPerNetwork: 0, apiTokenScope: 'none' as const, apiRequestsPerMinute: 0 };
    const models = await modelsOfPlans(
      this.database,
      userIds.map((id) => planOf(id).planId),
    );
    return new Map(
      userIds.map((userId) => {
        const { planId, maxClientsPerNetwork, apiTokenScope, apiRequestsPerMinute } = planOf(userId);
        const allowed = models
          .get(planId)!
          .filter((m) => m.active)
          .map((m) => m.name);
        return [
          userId,
          {
            plan_id: planId,
            max_clients: maxClientsPerNetwork,
            allowed_models: allowed,
            api_token_scope: apiTokenScope,
            api_requests_per_minute: apiRequestsPerMinute,
          },
        ];
      }),
    );
  }
}
