import type { Payment, Subscription } from '@meshwork/contracts';
import { formatDay } from '../../../shared/format/account-format';

/** Spec section 2: the history shows the five latest payments (the api sends newest first). */
export const PAYMENT_HISTORY_SIZE = 5;

const statusLabels = { free: 'Free', active: 'Active', past_due: 'Past due' } as const satisfies Record<Subscription['status'], string>;

export type SubscriptionStatusLabel = (typeof statusLabels)[Subscription['status']] | 'Cancelling';

/** 'active' also covers a plan that ends at the period end; that one reads as Cancelling. */
export function subscriptionStatusLabel(subscription: Pick<Subscription, 'status' | 'cancel_at_period_end'>): SubscriptionStatusLabel {
  return subscription.status === 'active' && subscription.cancel_at_period_end ? 'Cancelling' : statusLabels[subscription.status];
}

/** Only a paid subscription that is not already ending can be cancelled. */
export function canCancel(subscription: Pick<Subscription, 'status' | 'price' | 'cancel_at_period_end'>): boolean {
  return subscription.status !== 'free' && Number(subscription.price) > 0 && !subscription.cancel_at_period_end;
}

/** Spec section 4: completed is shown green, any other status in the pending style. */
export function paymentTone(status: string): 'completed' | 'pending' {
  return status === 'completed' ? 'completed' : 'pending';
}

export function hasRefund(payment: Pick<Payment, 'refunded_amount'>): boolean {
  return Number(payment.refunded_amount) > 0;
}

/** What the user must know about where the subscription is heading: past due, ending, or changing plan. */
export function subscriptionNotices(subscription: Subscription): string[] {
  const notices: string[] = [];
  if (subscription.status === 'past_due')
    notices.push(
      `Your last payment failed. Please update your payment by ${formatDay(subscription.grace_until)} to keep the ${subscription.plan_name} plan.`,
    );
  if (subscription.cancel_at_period_end)
    notices.push(`Your subscription is cancelled and ends on ${formatDay(subscription.expires_at)}. You will then move to the Free plan.`);
  if (subscription.scheduled_plan_name && !subscription.cancel_at_period_end)
    notices.push(`Your plan changes to ${subscription.scheduled_plan_name} on ${formatDay(subscription.expires_at)}.`);
  return notices;
}
