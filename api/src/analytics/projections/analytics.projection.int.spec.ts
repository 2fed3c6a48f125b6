import { anEvent } from '@meshwork/testkit/api/an-event';
import type { Database } from '../../platform/database/database';
import { projectionScenario, type StreamEvents } from '../../testing/projection-scenario';
import { AnalyticsReports } from '../application/analytics-report.query';
import { analyticsProjection } from './analytics.projection';

/** One event of `streamId` at noon (UTC) of `day`. */
const at = (day: string, streamId: string, type: string, data: object = {}): StreamEvents => ({
  streamId,
  events: [anEvent({ type, data, occurredAt: new Date(`${day}T12:00:00Z`) })],
});

const plan = (id: string, name: string) => at('2026-01-01', `plan-${id}`, 'PlanCreated', { planId: id, terms: { name }, isActive: true });
const payment = (id: string, day: string, amountCents: number) => [
  at(day, `payment-${id}`, 'PaymentInitiated', { userId: 'u1', planId: 'pro', amountCents, currency: 'USD', kind: 'subscription' }),
  at(day, `payment-${id}`, 'PaymentSucceeded', { refundTarget: null }),
];
const download = (user: string, model: string, day: string, kind = 'model') =>
  at(day, `downloads-${user}`, 'DownloadRecorded', {
    downloadId: `${user}-${model}-${day}`,
    kind,
    ref: model,
    version: '1',
    fileName: 'f',
    size: 1,
  });
/** A host's report, recorded on `day`, of its cumulative figures for `hour` (which may be an earlier day's). */
const used = (user: string, device: string, model: string, hour: string, requests: number, tokens: number, day = hour.slice(0, 10)) =>
  at(day, `usage-${device}-${hour.slice(0, 13).replace(/[-T]/g, '')}`, 'DeviceUsageReported', {
    deviceId: device,
    userId: user,
    hour,
    model,
    requests,
    promptTokens: tokens / 2,
    completionTokens: tokens / 2,
    busyMs: requests * 100,
  });

describe('analytics read model and report (daily buckets in, the console report out)', () => {
  const analytics = projectionScenario(() => analyticsProjection);
  const report = (range: '7d' | '30d' | '1y') => new AnalyticsReports({ pool: analytics.pool } as Database).report(range, '2026-06-30');

  it('a week of sign-ups, plan moves, payments, a refund and device usage: every series and summary figure of the 7-day report', async () => {
    await analytics
      .given(
        plan('free', 'Free'),
        plan('pro', 'Pro'),
        plan('team', 'Team'),
        plan('old', 'Old'),
        at('2026-02-01', 'plan-old', 'PlanArchived', { planId: 'old' }),
        at('2026-06-01', 'user-u1', 'UserRegistered'),
        at('2026-06-10', 'user-u2', 'UserRegistered'),
        at('2026-06-05', 'subscription-u1', 'SubscriptionActivated', { planId: 'pro' }),
        ...payment('p0', '2026-06-20', 2900),
        download('u1', 'm2', '2026-06-01'),
        used('u1', 'd1', 'm2', '2026-06-01T10:00:00.000Z', 1, 6),
      )
      .when(
        at('2026-06-25', 'user-u3', 'UserRegistered'),
        at('2026-06-28', 'user-u4', 'UserRegistered'),
        at('2026-06-30', 'user-u5', 'UserRegistered'),
        at('2026-06-29', 'user-u1', 'UserDeleted'),
        at('2026-06-26', 'subscription-u2', 'SubscriptionActivated', { planId: 'pro' }),
        at('2026-06-27', 'subscription-u2', 'SubscriptionUpgraded', { fromPlanId: 'pro', toPlanId: 'team' }),
        at('2026-06-29', 'subscription-u1', 'SubscriptionExpired', { planId: 'pro', reason: 'account-deleted' }),
        at('2026-06-30', 'subscription-u3', 'SubscriptionActivated', { planId: 'team' }),
        ...payment('p1', '2026-06-26', 2900),
        ...payment('p2', '2026-06-27', 4900),
        at('2026-06-29', 'payment-p2', 'PaymentRefunded', { refundId: 'r1', amountCents: 1000, reason: 'asked', fully: false }),
        at('2026-06-28', 'payment-p3', 'PaymentInitiated', { amountCents: 9900 }),
        at('2026-06-28', 'payment-p3', 'PaymentFailed', { reason: 'declined' }),
        download('u2', 'm1', '2026-06-25'),
        download('u2', 'm1', '2026-06-26'),
        download('u3', 'm1', '2026-06-30'),
        download('u3', 'm2', '2026-06-28'),
        download('u3', 'desktop-1', '2026-06-28', 'desktop'),
        at('2026-01-01', 'model-m1', 'ModelUploadStarted', {
          modelId: 'm1',
          model: { displayName: 'Llama', name: 'llama-3' },
          allowedPlans: [],
        }),
        // Cumulative figures of one hour: the second report adds what grew, the resend adds nothing.
        used('u2', 'd2', 'llama-3', '2026-06-25T10:00:00.000Z', 2, 30),
        used('u2', 'd2', 'llama-3', '2026-06-25T10:00:00.000Z', 3, 44),
        used('u2', 'd2', 'llama-3', '2026-06-25T10:00:00.000Z', 3, 44),
        used('u3', 'd3', 'llama-3', '2026-06-30T23:00:00.000Z', 1, 10),
        // Sent two days late (the host was offline): counted on the day it ran.
        used('u3', 'd3', 'm2', '2026-06-28T00:00:00.000Z', 1, 4, '2026-06-30'),
      );

    const week = await report('7d');
    expect({ from: week.from, to: week.to }).toEqual({ from: '2026-06-24', to: '2026-06-30' });
    expect(week.userGrowth).toEqual([
      { date: '2026-06-24', totalUsers: 2, newUsers: 0 },
      { date: '2026-06-25', totalUsers: 3, newUsers: 1 },
      { date: '2026-06-26', totalUsers: 3, newUsers: 0 },
      { date: '2026-06-27', totalUsers: 3, newUsers: 0 },
      { date: '2026-06-28', totalUsers: 4, newUsers: 1 },
      { date: '2026-06-29', totalUsers: 3, newUsers: 0 },
      { date: '2026-06-30', totalUsers: 4, newUsers: 1 },
    ]);
    // Pro: u1 at the start, u2 took it up and moved on, u1 ended (1 of 2 held: 50 % churn); 1 of 5 accounts took it up.
    // Free is every account without a subscription; the archived plan had nothing this week.
    expect(week.subscriptionMetrics).toEqual([
      { planName: 'Team', activeSubscriptions: 2, conversionRate: 40, churnRate: 0 },
      { planName: 'Pro', activeSubscriptions: 0, conversionRate: 20, churnRate: 50 },
    ]);
    expect(week.revenueData.filter((day) => day.transactions > 0 || day.revenue !== 0)).toEqual([
      { date: '2026-06-26', revenue: 29, transactions: 1 },
      { date: '2026-06-27', revenue: 49, transactions: 1 },
      { date: '2026-06-29', revenue: -10, transactions: 0 },
    ]);
    expect(week.revenueData).toHaveLength(7);
    // What devices ran, not downloads; a model without an upload event keeps the name hosts report.
    expect(week.modelUsage).toEqual([
      { modelName: 'Llama', usageCount: 4, uniqueUsers: 2, tokens: 54 },
      { modelName: 'm2', usageCount: 1, uniqueUsers: 1, tokens: 4 },
    ]);
    expect(week.summary).toEqual({
      totalUsers: 4,
      newUsers: 3,
      totalRevenue: 68,
      revenueGrowth: 134.5, // 68.00 against 29.00 the week before
      activeSubscriptions: 2,
      subscriptionGrowth: 100, // 2 against 1 at the start
      topModel: 'Llama',
    });

    const year = await report('1y');
    expect(year.userGrowth).toHaveLength(365);
    expect(year.summary).toMatchObject({ totalUsers: 4, newUsers: 5, totalRevenue: 97, revenueGrowth: 100, subscriptionGrowth: 100 });
    expect(year.modelUsage).toEqual([
      { modelName: 'Llama', usageCount: 4, uniqueUsers: 2, tokens: 54 },
      { modelName: 'm2', usageCount: 2, uniqueUsers: 2, tokens: 10 },
    ]);
  });

  it('an empty log gives a report of zeros with every day present', async () => {
    await analytics.given().when();
    const month = await report('30d');
    expect(month.userGrowth).toHaveLength(30);
    expect(month.userGrowth.every((day) => day.totalUsers === 0 && day.newUsers === 0)).toBe(true);
    expect(month.subscriptionMetrics).toEqual([]);
    expect(month.modelUsage).toEqual([]);
    expect(month.summary).toEqual({
      totalUsers: 0,
      newUsers: 0,
      totalRevenue: 0,
      revenueGrowth: 0,
      activeSubscriptions: 0,
      subscriptionGrowth: 0,
      topModel: null,
    });
  });
});
