import type { Plan } from '@meshwork/contracts';
import { changeDirection, type ChangeDirection } from './plan-change';

type PlanRef = Pick<Plan, 'slug' | 'tier'>;

/** What a plan's button does (spec section 2, "Pricing page"). */
export type PlanAction =
  | { kind: 'link'; label: 'Get Started' | 'Contact Sales'; to: '/register' | '/contact' }
  | { kind: 'current'; label: 'Your Current Plan' }
  | { kind: 'change'; label: 'Upgrade Plan' | 'Downgrade Plan'; direction: ChangeDirection };

/** Who is looking: nobody, or a user on `current` (undefined while their plan is not known). */
export type Viewer = { signedIn: false } | { signedIn: true; current: PlanRef | undefined };

export const ENTERPRISE = 'enterprise';

/**
 * Visitors are sent to register, or to sales for Enterprise. A signed-in user can buy any
 * plan, Enterprise included, through the plan-change dialog; their own plan is disabled.
 */
export function planAction(plan: PlanRef, viewer: Viewer): PlanAction {
  if (!viewer.signedIn) {
    return plan.slug === ENTERPRISE
      ? { kind: 'link', label: 'Contact Sales', to: '/contact' }
      : { kind: 'link', label: 'Get Started', to: '/register' };
  }
  if (viewer.current?.slug === plan.slug) return { kind: 'current', label: 'Your Current Plan' };
  // An unknown current plan is treated as the lowest tier: every paid plan is then an upgrade.
  const direction = changeDirection(viewer.current?.tier ?? 0, plan.tier);
  return { kind: 'change', label: direction === 'upgrade' ? 'Upgrade Plan' : 'Downgrade Plan', direction };
}
