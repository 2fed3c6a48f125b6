import { describe, expect, it } from 'vitest';
import { aPlanInfo } from '../../../../shared/billing/billing-fixtures';
import { shouldShowOnboarding, tourFeatures, welcomeStepCount } from './onboarding-steps';

const proUpgrade = { name: 'Pro', slug: 'pro', max_networks: 5, max_clients_per_network: 10, upgrade_price: '29.00', benefits: [] };
const freeWithUpgrades = aPlanInfo({ plan_transitions: { available_upgrades: [proUpgrade] } });
const enterprise = aPlanInfo({
  plan_name: 'Enterprise',
  plan_slug: 'enterprise',
  permissions: { ...aPlanInfo().permissions, max_networks: 999, max_clients_per_network: 999 },
  available_models: [{ name: 'm', display_name: 'M', description: '', version: '1', file_size: 1, block_count: 1 }],
});

describe('onboarding', () => {
  it('shows until completed, and again when the show flag is set', () => {
    expect(shouldShowOnboarding({ onboarding_completed: false, show_onboarding: false })).toBe(true);
    expect(shouldShowOnboarding({ onboarding_completed: true, show_onboarding: false })).toBe(false);
    expect(shouldShowOnboarding({ onboarding_completed: true, show_onboarding: true })).toBe(true);
  });

  it('has 2 welcome steps, 3 when an upgrade is offered', () => {
    expect(welcomeStepCount(freeWithUpgrades)).toBe(3);
    expect(welcomeStepCount(enterprise)).toBe(2);
  });

  it('tells a free user about 1 network and offers the upgrade step', () => {
    const tour = tourFeatures(freeWithUpgrades);
    expect(tour.map((f) => f.title)).toEqual([
      'Network Creation',
      'Client Connections',
      'AI Model Access',
      'Plan Limitations',
      'Upgrade Options',
    ]);
    expect(tour[0]).toEqual({ title: 'Network Creation', description: 'Your Free plan lets you create 1 network.', status: 'limited' });
    expect(tour[2]?.status).toBe('upgrade');
    expect(tour[4]?.description).toBe('Upgrade to Pro for more networks, clients and models.');
  });

  it('marks unlimited limits available and leaves out upgrades when there are none', () => {
    const tour = tourFeatures(enterprise);
    expect(tour.map((f) => f.status)).toEqual(['available', 'available', 'available', 'info']);
    expect(tour[0]?.description).toBe('Your Enterprise plan lets you create as many networks as you need.');
  });
});
