import type { Plan, PlanInfo, Subscription } from '@meshwork/contracts';

/**
 * Test data shaped like the api's seeded plans (spec section 9). Only specs import this file,
 * so it never reaches the bundle.
 */
export function aPlan(overrides: Partial<Plan> & Pick<Plan, 'slug'>): Plan {
  return {
    id: overrides.slug,
    name: overrides.slug,
    description: '',
    price: '0.00',
    yearly_price: '0.00',
    currency: 'USD',
    duration_days: 30,
    max_networks: 1,
    max_clients_per_network: 2,
    max_clients: 2,
    allowed_models: [],
    features: [],
    model_access: 'Basic',
    api_access: 'Limited',
    download_access: true,
    api_token_scope: 'read',
    api_requests_per_minute: 60,
    webhooks: false,
    usage_history_days: 7,
    tier: 1,
    popular: false,
    is_active: true,
    ...overrides,
  };
}

export const freePlan = aPlan({
  slug: 'free',
  name: 'Free',
  tier: 1,
  features: ['Basic Support', 'Community Access', 'Local Processing', 'Basic Analytics'],
});

export const proPlan = aPlan({
  slug: 'pro',
  name: 'Pro',
  tier: 2,
  popular: true,
  price: '29.00',
  yearly_price: '288.84',
  max_networks: 5,
  max_clients_per_network: 10,
  max_clients: 10,
  model_access: 'Advanced',
  api_access: 'Full',
  api_token_scope: 'read_write',
  api_requests_per_minute: 600,
  usage_history_days: 90,
  features: ['Priority Support', 'Advanced Analytics', 'API Access', 'Local Processing'],
});

export const enterprisePlan = aPlan({
  slug: 'enterprise',
  name: 'Enterprise',
  tier: 3,
  price: '99.00',
  yearly_price: '986.04',
  max_networks: 999,
  max_clients_per_network: 999,
  max_clients: 999,
  model_access: 'All Models',
  api_access: 'Full + Webhooks',
  api_token_scope: 'read_write',
  api_requests_per_minute: 3000,
  webhooks: true,
  usage_history_days: 90,
  features: ['Priority Support', '24/7 Premium Support', 'Advanced Analytics', 'Custom Integrations'],
});

export const seededPlans: Plan[] = [freePlan, proPlan, enterprisePlan];

export function aPlanInfo(overrides: Partial<PlanInfo> = {}): PlanInfo {
  return {
    plan: 'free',
    plan_name: 'Free',
    plan_slug: 'free',
    expires_at: null,
    permissions: {
      max_networks: 1,
      max_clients_per_network: 2,
      api_token_scope: 'read',
      api_requests_per_minute: 60,
      webhooks: false,
      usage_history_days: 7,
    },
    available_models: [],
    download_info: { download_access: true },
    plan_transitions: { available_upgrades: [] },
    ...overrides,
  };
}

export function aSubscription(overrides: Partial<Subscription> = {}): Subscription {
  return {
    plan_id: 'pro',
    plan_name: 'Pro',
    status: 'active',
    billing_cycle: 'monthly',
    price: '29.00',
    currency: 'USD',
    started_at: '2026-05-01T10:00:00.000Z',
    expires_at: '2026-05-31T10:00:00.000Z',
    next_billing_date: '2026-05-31T10:00:00.000Z',
    cancel_at_period_end: false,
    scheduled_plan_id: null,
    scheduled_plan_name: null,
    grace_until: null,
    payment_method: 'simulated',
    ...overrides,
  };
}
