import type { Database } from '../../platform/database/database';
import { FREE_PLAN_ID } from '../domain/plan';
import type { EntitlementRecord, PlanRecord } from '../projections/billing.entities';
import { BILLING_SCHEMA as S, iso } from './billing-rows';

/** A user's entitlements (the free plan's where billing granted none) and their plan's name and tier. */
type PlanOfUserColumns = Pick<
  EntitlementRecord,
  'user_id' | 'plan_id' | 'max_networks' | 'max_clients_per_network' | 'download_access' | 'expires_at'
> &
  Pick<PlanRecord, 'name' | 'tier' | 'api_token_scope' | 'api_requests_per_minute' | 'webhooks' | 'usage_history_days'>;

/** What a user may use now, as GET /plan/ reports it (limits of 999 or more mean no cap). */
export interface UserPlan {
  planId: string;
  planName: string;
  /** The plan's place in the upgrade order. */
  tier: number;
  maxNetworks: number;
  maxClientsPerNetwork: number;
  downloadAccess: boolean;
  /**
   * The plan's API terms, read from the plan itself (not copied into the entitlements), so a
   * staff edit or a change of plan narrows API tokens on their next request.
   */
  apiTokenScope: PlanRecord['api_token_scope'];
  apiRequestsPerMinute: number;
  webhooks: boolean;
  usageHistoryDays: number;
  /** ISO 8601, or null on the free plan. */
  expiresAt: string | null;
}

/**
 * The plans of many users in one indexed query (the entitlements' primary key): a user
 * without entitlements is on the free plan. The one reading of that rule: BillingQueries.planInfo
 * asks it for one user, and the entitlement stream builds thousands of documents at once with it. Until the free plan
 * is in the read model (a fresh installation's first moments) no user is in the map: the
 * caller decides what that means (the entitlement document answers 503).
 */
export async function plansOfUsers(database: Database, userIds: readonly string[]): Promise<Map<string, UserPlan>> {
  // Raw SQL: a measured hot path (bench:entitlements, the entitlement fan-out to every device).
  const { rows } = await database.pool.query<PlanOfUserColumns>(
    `SELECT u.user_id, coalesce(e.plan_id, f.id) AS plan_id, p.name, p.tier,
            p.api_token_scope, p.api_requests_per_minute, p.webhooks, p.usage_history_days,
            coalesce(e.max_networks, f.max_networks) AS max_networks,
            coalesce(e.max_clients_per_network, f.max_clients_per_network) AS max_clients_per_network,
            coalesce(e.download_access, f.download_access) AS download_access, e.expires_at
       FROM unnest($1::text[]) AS u(user_id)
       JOIN ${S}.plans f ON f.id = $2
       LEFT JOIN ${S}.entitlements e ON e.user_id = u.user_id
       JOIN ${S}.plans p ON p.id = coalesce(e.plan_id, f.id)`,
    [userIds, FREE_PLAN_ID],
  );
  return new Map(
    rows.map((row) => [
      row.user_id,
      {
        planId: row.plan_id,
        planName: row.name,
        tier: row.tier,
        maxNetworks: row.max_networks,
        maxClientsPerNetwork: row.max_clients_per_network,
        downloadAccess: row.download_access,
        apiTokenScope: row.api_token_scope,
        apiRequestsPerMinute: row.api_requests_per_minute,
        webhooks: row.webhooks,
        usageHistoryDays: row.usage_history_days,
        expiresAt: iso(row.expires_at),
      },
    ]),
  );
}
