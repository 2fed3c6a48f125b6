import { ANNUAL_FACTOR, type ApiTokenScopeLimit, type BillingCycle } from '@meshwork/contracts';

/** A plan's terms, in cents and whole numbers (the api turns cents into "29.00"). */
export interface PlanTerms {
  name: string;
  description: string;
  priceCents: number;
  yearlyPriceCents: number;
  durationDays: number;
  maxNetworks: number;
  maxClientsPerNetwork: number;
  features: string[];
  modelAccess: string;
  apiAccess: string;
  downloadAccess: boolean;
  /** The widest scope its API tokens get; a token's scope is narrowed to it on every request. */
  apiTokenScope: ApiTokenScopeLimit;
  /** Requests per minute per API token. */
  apiRequestsPerMinute: number;
  webhooks: boolean;
  /** Days of device usage the dashboard shows. */
  usageHistoryDays: number;
  tier: number;
  popular: boolean;
}

/** A plan's API terms, the part added after plans were first sold (see plan.upcasters.ts). */
export type PlanApiTerms = Pick<PlanTerms, 'apiTokenScope' | 'apiRequestsPerMinute' | 'webhooks' | 'usageHistoryDays'>;

/**
 * The API terms of the seeded tiers (pricing "API Access: Limited / Full / Full + Webhooks",
 * "Advanced Analytics" 90 days): tier 1 and below is Free's, 2 Pro's, 3 and above Enterprise's.
 */
export function apiTermsOfTier(tier: number): PlanApiTerms {
  if (tier <= 1) return { apiTokenScope: 'read', apiRequestsPerMinute: 60, webhooks: false, usageHistoryDays: 7 };
  if (tier === 2) return { apiTokenScope: 'read_write', apiRequestsPerMinute: 600, webhooks: false, usageHistoryDays: 90 };
  return { apiTokenScope: 'read_write', apiRequestsPerMinute: 3000, webhooks: true, usageHistoryDays: 90 };
}

/** 12 x monthly x 0.83, to the cent: the yearly price unless staff set one. */
export const yearlyPriceOf = (monthlyCents: number) => Math.round(12 * monthlyCents * ANNUAL_FACTOR);

/** The price of a plan for a cycle, in cents. */
export const cyclePriceCents = (terms: PlanTerms, cycle: BillingCycle) => (cycle === 'yearly' ? terms.yearlyPriceCents : terms.priceCents);

/**
 * What a plan lets its subscriber do now: the entitlements of spec section 6. Which models
 * are the catalog's to say (each model's allowed plans), not the plan's.
 */
export interface Entitlements {
  planId: string;
  maxNetworks: number;
  maxClientsPerNetwork: number;
  downloadAccess: boolean;
  /** End of the paid period (null: free, never expires). */
  expiresAt: string | null;
}

export function entitlementsOf(planId: string, terms: PlanTerms, expiresAt: string | null): Entitlements {
  return {
    planId,
    maxNetworks: terms.maxNetworks,
    maxClientsPerNetwork: terms.maxClientsPerNetwork,
    downloadAccess: terms.downloadAccess,
    expiresAt,
  };
}

export const sameEntitlements = (a: Entitlements | null, b: Entitlements) => a !== null && JSON.stringify(a) === JSON.stringify(b);

export const FREE_PLAN_ID = 'free';
