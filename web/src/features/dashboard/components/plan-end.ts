import type { Subscription } from '@meshwork/contracts';

/** What the dashboard's fourth card says about the plan's end: when it renews, or when it ends (null: never). */
export interface PlanEnd {
  label: 'Plan Renews' | 'Plan Expires';
  date: string | null;
}

/**
 * A paid plan that carries on into its next period renews then; one cancelled, changing to
 * another plan at the period's end, or past due (access ends with the grace period) expires.
 * The free plan never ends (spec section 2: "Plan Expires or Never").
 */
export function planEnd(
  subscription: Pick<
    Subscription,
    'status' | 'expires_at' | 'next_billing_date' | 'cancel_at_period_end' | 'scheduled_plan_id' | 'grace_until'
  >,
): PlanEnd {
  if (subscription.status === 'free' || subscription.expires_at === null) return { label: 'Plan Expires', date: null };
  if (subscription.status === 'past_due') return { label: 'Plan Expires', date: subscription.grace_until ?? subscription.expires_at };
  if (subscription.cancel_at_period_end || subscription.scheduled_plan_id !== null)
    return { label: 'Plan Expires', date: subscription.expires_at };
  return { label: 'Plan Renews', date: subscription.next_billing_date ?? subscription.expires_at };
}
