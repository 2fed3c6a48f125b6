import { given } from '../../platform/testing/given-when-then';
import { enterprise, free, pro } from './billing-fixtures';
import { entitlementsOf } from './plan';
import type { SubscriptionCommand } from './subscription.commands';
import { cancellable, paidPeriod, planChange, subscriptionDecider } from './subscription.decider';
import { replay } from '../../platform/domain/decider';
import type { SubscriptionEvent } from './subscription.events';

const start = new Date('2026-03-01T00:00:00Z');
const end = new Date('2026-03-31T00:00:00Z');
const mid = new Date('2026-03-16T00:00:00Z');
const nextEnd = new Date('2026-04-30T00:00:00Z');

const activate = (overrides: Partial<Extract<SubscriptionCommand, { type: 'ActivateSubscription' }>> = {}): SubscriptionCommand => ({
  type: 'ActivateSubscription',
  at: start,
  plan: pro,
  cycle: 'monthly',
  periodStart: start,
  periodEnd: end,
  provider: 'stripe',
  providerSubscriptionId: 'sub_1',
  checkoutSessionId: 'cs_1',
  ...overrides,
});

const activated: SubscriptionEvent = {
  type: 'SubscriptionActivated',
  data: {
    planId: 'pro',
    tier: 2,
    priceCents: 2900,
    cycle: 'monthly',
    periodStart: start.toISOString(),
    periodEnd: end.toISOString(),
    provider: 'stripe',
    providerSubscriptionId: 'sub_1',
    checkoutSessionId: 'cs_1',
  },
};
const proEntitlements: SubscriptionEvent = { type: 'EntitlementsChanged', data: entitlementsOf('pro', pro.terms, end.toISOString()) };
const onPro = [activated, proEntitlements];
const cancelling: SubscriptionEvent = { type: 'CancellationScheduled', data: { effectiveAt: end.toISOString(), providerNewsAt: null } };
const pastDue: SubscriptionEvent = { type: 'SubscriptionPastDue', data: { graceUntil: '2026-04-07T00:00:00.000Z' } };

describe('subscription decider', () => {
  describe('checkout', () => {
    it('starts a checkout for a paid plan from free', () => {
      given(subscriptionDecider)
        .when({ type: 'StartCheckout', at: start, sessionId: 'cs_1', planId: 'pro', cycle: 'monthly', provider: 'stripe' })
        .then([{ type: 'CheckoutStarted', data: { sessionId: 'cs_1', planId: 'pro', cycle: 'monthly', provider: 'stripe' } }]);
    });

    it('refuses a checkout for the free plan, or while a paid subscription runs', () => {
      given(subscriptionDecider)
        .when({ type: 'StartCheckout', at: start, sessionId: 'cs_1', planId: 'free', cycle: 'monthly', provider: 'stripe' })
        .thenThrows(/already on the free plan/);
      given(subscriptionDecider, onPro)
        .when({ type: 'StartCheckout', at: start, sessionId: 'cs_2', planId: 'enterprise', cycle: 'monthly', provider: 'stripe' })
        .thenThrows(/change its plan instead/);
    });

    it('activates on payment with the plan’s entitlements, once per checkout and per provider subscription', () => {
      given(subscriptionDecider).when(activate()).then(onPro);
      given(subscriptionDecider, onPro).when(activate()).then([]);
      given(subscriptionDecider, onPro)
        .when(activate({ checkoutSessionId: null }))
        .then([]);
    });

    it('ignores news of a period already over, or of a provider subscription that ended', () => {
      given(subscriptionDecider)
        .when(activate({ at: nextEnd }))
        .then([]);
      given(subscriptionDecider, [...onPro, { type: 'SubscriptionExpired', data: { planId: 'pro', reason: 'provider-ended' } }])
        .when(activate({ checkoutSessionId: null }))
        .then([]);
    });
  });

  describe('plan changes', () => {
    it('upgrades at once with a charge for the rest of the period', () => {
      given(subscriptionDecider, onPro)
        .when({ type: 'ChangePlan', at: mid, plan: enterprise })
        .then([
          {
            type: 'SubscriptionUpgraded',
            data: { fromPlanId: 'pro', toPlanId: 'enterprise', tier: 3, priceCents: 9900, prorationCents: 3500 },
          },
          { type: 'EntitlementsChanged', data: entitlementsOf('enterprise', enterprise.terms, end.toISOString()) },
        ]);
    });

    it('schedules a downgrade for the period end, keeping today’s entitlements', () => {
      const onEnterprise = [
        { ...activated, data: { ...activated.data, planId: 'enterprise', tier: 3, priceCents: 9900 } },
        { type: 'EntitlementsChanged', data: entitlementsOf('enterprise', enterprise.terms, end.toISOString()) },
      ] as SubscriptionEvent[];
      given(subscriptionDecider, onEnterprise)
        .when({ type: 'ChangePlan', at: mid, plan: pro })
        .then([{ type: 'DowngradeScheduled', data: { toPlanId: 'pro', effectiveAt: end.toISOString() } }]);
    });

    it('treats a change to free as a cancellation at the period end', () => {
      given(subscriptionDecider, onPro).when({ type: 'ChangePlan', at: mid, plan: free }).then([cancelling]);
    });

    it('undoes a scheduled change when the current plan is chosen again', () => {
      given(subscriptionDecider, [...onPro, cancelling])
        .when({ type: 'ChangePlan', at: mid, plan: pro })
        .then([{ type: 'CancellationWithdrawn', data: { providerNewsAt: null } }]);
      given(subscriptionDecider, onPro).when({ type: 'ChangePlan', at: mid, plan: pro }).then([]);
    });

    it('refuses plan changes on free and while past due', () => {
      given(subscriptionDecider)
        .when({ type: 'ChangePlan', at: mid, plan: pro })
        .thenThrows(/free plan/);
      given(subscriptionDecider, [...onPro, pastDue])
        .when({ type: 'ChangePlan', at: mid, plan: enterprise })
        .thenThrows(/payment failed/);
    });
  });

  describe('cancellation', () => {
    it('cancels at the period end, once', () => {
      given(subscriptionDecider, onPro).when({ type: 'CancelAtPeriodEnd', at: mid }).then([cancelling]);
      given(subscriptionDecider, [...onPro, cancelling])
        .when({ type: 'CancelAtPeriodEnd', at: mid })
        .then([]);
      given(subscriptionDecider)
        .when({ type: 'CancelAtPeriodEnd', at: mid })
        .thenThrows(/free plan/);
    });

    it('ignores provider news older than the news already applied', () => {
      const newsAt = new Date('2026-03-10T00:00:00Z');
      const cancelledByProvider: SubscriptionEvent = {
        type: 'CancellationScheduled',
        data: { effectiveAt: end.toISOString(), providerNewsAt: newsAt.toISOString() },
      };
      given(subscriptionDecider, [...onPro, cancelledByProvider])
        .when({ type: 'WithdrawCancellation', at: mid, providerNewsAt: new Date('2026-03-09T00:00:00Z') })
        .then([]);
      given(subscriptionDecider, [...onPro, cancelledByProvider])
        .when({ type: 'WithdrawCancellation', at: mid, providerNewsAt: new Date('2026-03-11T00:00:00Z') })
        .then([{ type: 'CancellationWithdrawn', data: { providerNewsAt: '2026-03-11T00:00:00.000Z' } }]);
    });

    it('expires at the period end and falls back to free', () => {
      given(subscriptionDecider, [...onPro, cancelling])
        .when({ type: 'ExpireSubscription', at: end, reason: 'period-ended', freePlan: free })
        .then([
          { type: 'SubscriptionExpired', data: { planId: 'pro', reason: 'period-ended' } },
          { type: 'EntitlementsChanged', data: entitlementsOf('free', free.terms, null) },
        ]);
      given(subscriptionDecider, [...onPro, cancelling])
        .when({ type: 'ExpireSubscription', at: mid, reason: 'period-ended', freePlan: free })
        .then([]);
      given(subscriptionDecider, onPro).when({ type: 'ExpireSubscription', at: end, reason: 'period-ended', freePlan: free }).then([]);
    });
  });

  describe('plan terms changed by staff', () => {
    it('gives the plan’s subscribers the new terms at once, and leaves others alone', () => {
      const bigger = { planId: 'pro', terms: { ...pro.terms, maxNetworks: 8 } };
      given(subscriptionDecider, onPro)
        .when({ type: 'RefreshEntitlements', at: mid, plan: bigger })
        .then([{ type: 'EntitlementsChanged', data: entitlementsOf('pro', bigger.terms, end.toISOString()) }]);
      given(subscriptionDecider, onPro).when({ type: 'RefreshEntitlements', at: mid, plan: pro }).then([]);
      given(subscriptionDecider, onPro).when({ type: 'RefreshEntitlements', at: mid, plan: enterprise }).then([]);
      given(subscriptionDecider).when({ type: 'RefreshEntitlements', at: mid, plan: free }).then([]);
    });
  });

  describe('renewal and failed payments', () => {
    it('renews into the next period, once', () => {
      const renew: SubscriptionCommand = { type: 'RenewSubscription', at: end, periodStart: end, periodEnd: nextEnd, scheduledPlan: null };
      given(subscriptionDecider, onPro)
        .when(renew)
        .then([
          { type: 'SubscriptionRenewed', data: { periodStart: end.toISOString(), periodEnd: nextEnd.toISOString() } },
          { type: 'EntitlementsChanged', data: entitlementsOf('pro', pro.terms, nextEnd.toISOString()) },
        ]);
      const renewed: SubscriptionEvent = {
        type: 'SubscriptionRenewed',
        data: { periodStart: end.toISOString(), periodEnd: nextEnd.toISOString() },
      };
      given(subscriptionDecider, [...onPro, renewed])
        .when(renew)
        .then([]);
    });

    it('applies a scheduled downgrade at renewal', () => {
      const onEnterprise = [
        { ...activated, data: { ...activated.data, planId: 'enterprise', tier: 3, priceCents: 9900 } },
        { type: 'EntitlementsChanged', data: entitlementsOf('enterprise', enterprise.terms, end.toISOString()) },
        { type: 'DowngradeScheduled', data: { toPlanId: 'pro', effectiveAt: end.toISOString() } },
      ] as SubscriptionEvent[];
      given(subscriptionDecider, onEnterprise)
        .when({ type: 'RenewSubscription', at: end, periodStart: end, periodEnd: nextEnd, scheduledPlan: pro })
        .then([
          { type: 'DowngradeApplied', data: { fromPlanId: 'enterprise', toPlanId: 'pro', tier: 2, priceCents: 2900 } },
          { type: 'SubscriptionRenewed', data: { periodStart: end.toISOString(), periodEnd: nextEnd.toISOString() } },
          { type: 'EntitlementsChanged', data: entitlementsOf('pro', pro.terms, nextEnd.toISOString()) },
        ]);
    });

    it('goes past due on a failed payment, keeps the plan through the grace period, then falls back to free', () => {
      given(subscriptionDecider, onPro)
        .when({ type: 'RecordPaymentFailure', at: end, graceUntil: new Date('2026-04-07T00:00:00Z') })
        .then([pastDue]);
      given(subscriptionDecider, [...onPro, pastDue])
        .when({ type: 'ExpireSubscription', at: new Date('2026-04-01T00:00:00Z'), reason: 'grace-ended', freePlan: free })
        .then([]);
      given(subscriptionDecider, [...onPro, pastDue])
        .when({ type: 'ExpireSubscription', at: new Date('2026-04-07T00:00:00Z'), reason: 'grace-ended', freePlan: free })
        .then([
          { type: 'SubscriptionExpired', data: { planId: 'pro', reason: 'grace-ended' } },
          { type: 'EntitlementsChanged', data: entitlementsOf('free', free.terms, null) },
        ]);
    });

    it('a payment that succeeds while past due makes the subscription active again', () => {
      const state = given(subscriptionDecider, [...onPro, pastDue])
        .when({ type: 'RenewSubscription', at: end, periodStart: end, periodEnd: nextEnd, scheduledPlan: null })
        .thenState();
      expect(state.status).toBe('active');
      expect(paidPeriod(state)?.graceUntil).toBeNull();
    });

    it('ends at once when the provider ends the subscription', () => {
      given(subscriptionDecider, onPro)
        .when({ type: 'ExpireSubscription', at: mid, reason: 'provider-ended', freePlan: free })
        .then([
          { type: 'SubscriptionExpired', data: { planId: 'pro', reason: 'provider-ended' } },
          { type: 'EntitlementsChanged', data: entitlementsOf('free', free.terms, null) },
        ]);
      given(subscriptionDecider).when({ type: 'ExpireSubscription', at: mid, reason: 'provider-ended', freePlan: free }).then([]);
    });
  });

  describe('guards asked before the payment provider', () => {
    const stateOf = (events: SubscriptionEvent[]) => replay(subscriptionDecider, events);
    const onEnterprise = [
      { ...activated, data: { ...activated.data, planId: 'enterprise', tier: 3, priceCents: 9900 } },
    ] as SubscriptionEvent[];

    it('planChange says what choosing a plan does, with the upgrade’s charge', () => {
      expect(planChange(stateOf(onPro), enterprise, mid)).toMatchObject({ kind: 'upgrade', priceCents: 9900, prorationCents: 3500 });
      expect(planChange(stateOf(onEnterprise), pro, mid).kind).toBe('downgrade');
      expect(planChange(stateOf(onPro), free, mid).kind).toBe('cancel');
      expect(planChange(stateOf([...onPro, cancelling]), free, mid).kind).toBe('unchanged');
      expect(planChange(stateOf([...onPro, cancelling]), pro, mid).kind).toBe('withdraw-cancellation');
      const downgrading = [...onEnterprise, { type: 'DowngradeScheduled', data: { toPlanId: 'pro', effectiveAt: end.toISOString() } }];
      expect(planChange(stateOf(downgrading as SubscriptionEvent[]), enterprise, mid).kind).toBe('keep-current');
      expect(planChange(stateOf(onPro), pro, mid)).toMatchObject({ kind: 'unchanged', current: { planId: 'pro' } });
    });

    it('planChange refuses on free and while past due, as the decider does', () => {
      expect(() => planChange(stateOf([]), pro, mid)).toThrow(/free plan/);
      expect(() => planChange(stateOf([...onPro, pastDue]), enterprise, mid)).toThrow(/payment failed/);
    });

    it('cancellable gives the period a cancellation ends, null once it is set to end, and refuses on free', () => {
      expect(cancellable(stateOf(onPro))).toMatchObject({ planId: 'pro', providerSubscriptionId: 'sub_1' });
      expect(cancellable(stateOf([...onPro, cancelling]))).toBeNull();
      expect(() => cancellable(stateOf([]))).toThrow(/free plan/);
    });
  });

  describe('evolve', () => {
    it('never throws: news of a paid period on a free subscription leaves it as it was', () => {
      const free = subscriptionDecider.initialState();
      const news: SubscriptionEvent[] = [
        { type: 'SubscriptionUpgraded', data: { fromPlanId: 'pro', toPlanId: 'enterprise', tier: 3, priceCents: 9900, prorationCents: 0 } },
        { type: 'DowngradeScheduled', data: { toPlanId: 'pro', effectiveAt: end.toISOString() } },
        cancelling,
        { type: 'CancellationWithdrawn', data: { providerNewsAt: null } },
        { type: 'DowngradeApplied', data: { fromPlanId: 'enterprise', toPlanId: 'pro', tier: 2, priceCents: 2900 } },
        { type: 'SubscriptionRenewed', data: { periodStart: end.toISOString(), periodEnd: nextEnd.toISOString() } },
        pastDue,
      ];
      for (const event of news) expect(subscriptionDecider.evolve(free, event)).toBe(free);
    });

    it('keeps what it remembers across a paid period: checkouts, ended provider subscriptions, entitlements', () => {
      const expired: SubscriptionEvent = { type: 'SubscriptionExpired', data: { planId: 'pro', reason: 'provider-ended' } };
      const state = replay(subscriptionDecider, [...onPro, expired]);
      expect(state).toEqual({
        status: 'free',
        openCheckouts: [],
        completedCheckouts: ['cs_1'],
        endedProviderSubscriptions: ['sub_1'],
        entitlements: entitlementsOf('pro', pro.terms, end.toISOString()),
      });
    });
  });
});
