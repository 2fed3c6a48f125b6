import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { logger } from '../../platform/logging/logger';
import { apiTermsOfTier, type PlanApiTerms, type PlanTerms, yearlyPriceOf } from '../domain/plan';
import { SeedPlan } from './seed-plan.handler';

const plan = (terms: Omit<PlanTerms, 'yearlyPriceCents' | 'durationDays' | keyof PlanApiTerms>): PlanTerms => ({
  ...terms,
  ...apiTermsOfTier(terms.tier),
  durationDays: 30,
  yearlyPriceCents: yearlyPriceOf(terms.priceCents),
});

/**
 * The catalogue a new installation starts with, from spec section 9's comparison table and
 * prices. Where the spec disagrees with itself (the billing card's "up to 20 clients" for Pro
 * against the table's 10 clients per network), the table wins: it is the one place that
 * states every limit of every plan. Staff change plans from the console afterwards.
 */
export const SEEDED_PLANS: Record<string, PlanTerms> = {
  free: plan({
    name: 'Free',
    description: 'Run local AI on one network of up to two devices.',
    priceCents: 0,
    maxNetworks: 1,
    maxClientsPerNetwork: 2,
    features: ['Basic Support', 'Community Access', 'Local Processing', 'Basic Analytics'],
    modelAccess: 'Basic',
    apiAccess: 'Limited',
    downloadAccess: true,
    tier: 1,
    popular: false,
  }),
  pro: plan({
    name: 'Pro',
    description: 'For teams running AI across several sites and devices.',
    priceCents: 2900,
    maxNetworks: 5,
    maxClientsPerNetwork: 10,
    features: [
      'Priority Support',
      'Advanced Analytics',
      'API Access',
      'Local Processing',
      'Community Access',
      'Team Collaboration',
      'Custom Model Upload',
    ],
    modelAccess: 'Advanced',
    apiAccess: 'Full',
    downloadAccess: true,
    tier: 2,
    popular: true,
  }),
  enterprise: plan({
    name: 'Enterprise',
    description: 'Unlimited networks and devices, every model, and a team behind you.',
    priceCents: 9900,
    maxNetworks: 999,
    maxClientsPerNetwork: 999,
    features: [
      'Priority Support',
      '24/7 Premium Support',
      'Advanced Analytics',
      'API Access',
      'Custom Integrations',
      'Advanced Security',
      'On-Premise Deployment',
      'Dedicated Account Manager',
      'Custom SLA',
      'White-label Options',
    ],
    modelAccess: 'All Models',
    apiAccess: 'Full + Webhooks',
    downloadAccess: true,
    tier: 3,
    popular: false,
  }),
};

/** Creates the seeded plans that do not exist yet (every start; several instances may race). */
@Injectable()
export class SeedPlans implements OnApplicationBootstrap {
  constructor(private readonly commands: CommandBus) {}

  async onApplicationBootstrap(): Promise<void> {
    for (const [planId, terms] of Object.entries(SEEDED_PLANS)) {
      if (await this.commands.execute<SeedPlan, boolean>(new SeedPlan(planId, terms, new Date()))) logger.info({ planId }, 'seeded plan');
    }
  }
}
