import { describe, expect, it } from 'vitest';
import { enterprisePlan as enterprise, freePlan as free, proPlan as pro } from './billing-fixtures';
import { planAction } from './plan-action';

describe('pricing buttons (spec section 2)', () => {
  it('send visitors to register, and to sales for Enterprise', () => {
    const visitor = { signedIn: false } as const;
    expect(planAction(free, visitor)).toEqual({ kind: 'link', label: 'Get Started', to: '/register' });
    expect(planAction(pro, visitor)).toEqual({ kind: 'link', label: 'Get Started', to: '/register' });
    expect(planAction(enterprise, visitor)).toEqual({ kind: 'link', label: 'Contact Sales', to: '/contact' });
  });

  it('disable the signed-in user’s own plan', () => {
    expect(planAction(pro, { signedIn: true, current: pro })).toEqual({ kind: 'current', label: 'Your Current Plan' });
  });

  it('offer upgrades above and downgrades below the current tier, Enterprise included', () => {
    const onPro = { signedIn: true, current: pro } as const;
    expect(planAction(enterprise, onPro)).toEqual({ kind: 'change', label: 'Upgrade Plan', direction: 'upgrade' });
    expect(planAction(free, onPro)).toEqual({ kind: 'change', label: 'Downgrade Plan', direction: 'downgrade' });
    expect(planAction(enterprise, { signedIn: true, current: free })).toMatchObject({ label: 'Upgrade Plan' });
  });

  it('treat an unknown current plan as the lowest tier', () => {
    expect(planAction(pro, { signedIn: true, current: undefined })).toMatchObject({ label: 'Upgrade Plan' });
  });
});
