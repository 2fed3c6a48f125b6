import { describe, expect, it } from 'vitest';
import { planEnd } from './plan-end';

const periodEnd = '2026-12-27T00:00:00.000Z';
const renewing = {
  status: 'active' as const,
  expires_at: periodEnd,
  next_billing_date: periodEnd,
  cancel_at_period_end: false,
  scheduled_plan_id: null,
  grace_until: null,
};

describe('the dashboard card on the plan’s end', () => {
  it('says a paid plan that carries on renews, on its next billing date', () => {
    expect(planEnd(renewing)).toEqual({ label: 'Plan Renews', date: periodEnd });
  });

  it('says a plan ends when it will: cancelled, changing plan at the period end, or past due until the grace period ends', () => {
    expect(planEnd({ ...renewing, cancel_at_period_end: true })).toEqual({ label: 'Plan Expires', date: periodEnd });
    expect(planEnd({ ...renewing, scheduled_plan_id: 'free' })).toEqual({ label: 'Plan Expires', date: periodEnd });
    const grace = '2027-01-03T00:00:00.000Z';
    expect(planEnd({ ...renewing, status: 'past_due', next_billing_date: null, grace_until: grace })).toEqual({
      label: 'Plan Expires',
      date: grace,
    });
  });

  it('says the free plan never expires', () => {
    expect(planEnd({ ...renewing, status: 'free', expires_at: null, next_billing_date: null })).toEqual({
      label: 'Plan Expires',
      date: null,
    });
  });
});
