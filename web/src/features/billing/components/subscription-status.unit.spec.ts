import { describe, expect, it } from 'vitest';
import { aSubscription } from '../../../shared/billing/billing-fixtures';
import { canCancel, hasRefund, paymentTone, subscriptionNotices, subscriptionStatusLabel } from './subscription-status';

describe('subscription status on the billing page', () => {
  it('can cancel only a paid plan that is not already ending', () => {
    expect(canCancel(aSubscription())).toBe(true);
    expect(canCancel(aSubscription({ cancel_at_period_end: true }))).toBe(false);
    expect(canCancel(aSubscription({ status: 'free', plan_id: 'free', price: '0.00' }))).toBe(false);
    expect(canCancel(aSubscription({ status: 'past_due' }))).toBe(true);
  });

  it('shows completed payments green and every other status as pending (spec section 4)', () => {
    expect(paymentTone('completed')).toBe('completed');
    for (const status of ['pending', 'failed', 'refunded', 'something-new']) expect(paymentTone(status)).toBe('pending');
  });

  it('shows a refund only when some amount was refunded', () => {
    expect(hasRefund({ refunded_amount: '0.00' })).toBe(false);
    expect(hasRefund({ refunded_amount: '10.00' })).toBe(true);
  });

  it('reads a plan ending at the period end as Cancelling', () => {
    expect(subscriptionStatusLabel(aSubscription())).toBe('Active');
    expect(subscriptionStatusLabel(aSubscription({ cancel_at_period_end: true }))).toBe('Cancelling');
    expect(subscriptionStatusLabel(aSubscription({ status: 'past_due' }))).toBe('Past due');
  });

  it('warns about a past-due payment with its grace date, a cancellation, and a scheduled downgrade', () => {
    expect(subscriptionNotices(aSubscription())).toEqual([]);
    expect(subscriptionNotices(aSubscription({ status: 'past_due', grace_until: '2026-06-07T12:00:00.000Z' }))).toEqual([
      'Your last payment failed. Please update your payment by Jun 7, 2026 to keep the Pro plan.',
    ]);
    expect(subscriptionNotices(aSubscription({ cancel_at_period_end: true }))).toEqual([
      'Your subscription is cancelled and ends on May 31, 2026. You will then move to the Free plan.',
    ]);
    expect(subscriptionNotices(aSubscription({ scheduled_plan_id: 'free', scheduled_plan_name: 'Free' }))).toEqual([
      'Your plan changes to Free on May 31, 2026.',
    ]);
  });
});
