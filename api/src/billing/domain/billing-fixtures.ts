import { apiTermsOfTier, type PlanTerms } from './plan';
import type { PlanChoice } from './subscription.commands';

/** Plan terms for decider tests, shaped like the seeded catalogue. */
export const terms = (overrides: Partial<PlanTerms> = {}): PlanTerms => ({
  name: 'Pro',
  description: '',
  priceCents: 2900,
  yearlyPriceCents: 28884,
  durationDays: 30,
  maxNetworks: 5,
  maxClientsPerNetwork: 10,
  features: ['Priority Support'],
  modelAccess: 'Advanced',
  apiAccess: 'Full',
  downloadAccess: true,
  tier: 2,
  popular: true,
  ...apiTermsOfTier(overrides.tier ?? 2),
  ...overrides,
});

export const free: PlanChoice = {
  planId: 'free',
  terms: terms({ name: 'Free', priceCents: 0, yearlyPriceCents: 0, maxNetworks: 1, maxClientsPerNetwork: 2, tier: 1, popular: false }),
};
export const pro: PlanChoice = { planId: 'pro', terms: terms() };
export const enterprise: PlanChoice = {
  planId: 'enterprise',
  terms: terms({
    name: 'Enterprise',
    priceCents: 9900,
    yearlyPriceCents: 98604,
    maxNetworks: 999,
    maxClientsPerNetwork: 999,
    tier: 3,
    popular: false,
  }),
};
