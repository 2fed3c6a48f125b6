import type { BillingCycle } from '@meshwork/contracts';
import { type Decider, unreachable } from '../../platform/domain/decider';
import { ruleBroken } from '../../platform/domain/errors';
import { cyclePriceCents, type Entitlements, entitlementsOf, FREE_PLAN_ID, sameEntitlements } from './plan';
import type { PlanChoice, SubscriptionCommand } from './subscription.commands';
import type { PaymentProviderName, SubscriptionEvent } from './subscription.events';

/** A period that has been paid for, on a paid plan. */
export interface PaidPeriod {
  planId: string;
  /** The plan's tier and prices when it was chosen: upgrades compare and prorate against them. */
  tier: number;
  priceCents: number;
  cycle: BillingCycle;
  periodStart: string;
  periodEnd: string;
  provider: PaymentProviderName;
  providerSubscriptionId: string | null;
  cancelAtPeriodEnd: boolean;
  /** When the provider last told us about cancellation: older news is ignored. */
  cancellationNewsAt: string | null;
  scheduledPlanId: string | null;
  graceUntil: string | null;
}

/** What a subscription remembers whether paid or not. */
interface Memory {
  /** Checkout sessions started and completed: completion is idempotent by session. */
  openCheckouts: string[];
  completedCheckouts: string[];
  /** Provider subscriptions that ended: late news about them never brings them back. */
  endedProviderSubscriptions: string[];
  entitlements: Entitlements | null;
}

export type SubscriptionState =
  ({ status: 'free' } & Memory) | ({ status: 'active' | 'past_due'; paid: PaidPeriod; startedAt: string } & Memory);

type Paid = Extract<SubscriptionState, { paid: PaidPeriod }>;

/** The paid period, or null on the free plan. */
export const paidPeriod = (state: SubscriptionState): PaidPeriod | null => (state.status === 'free' ? null : state.paid);

const noSubscription = () => ruleBroken('You are on the free plan: there is no paid subscription to change.');

function paid(state: SubscriptionState): Paid {
  if (state.status === 'free') throw noSubscription();
  return state;
}

/**
 * The prorated charge of an upgrade: the difference in price for the part of the period
 * that is left, to the cent.
 */
export function prorationCents(current: PaidPeriod, newPriceCents: number, at: Date): number {
  const start = Date.parse(current.periodStart);
  const end = Date.parse(current.periodEnd);
  const left = Math.min(1, Math.max(0, (end - at.getTime()) / (end - start)));
  return Math.max(0, Math.round((newPriceCents - current.priceCents) * left));
}

/** What choosing a plan does to a paid subscription, and the period it applies to. */
export type PlanChange = { current: PaidPeriod } & (
  | { kind: 'upgrade'; priceCents: number; prorationCents: number }
  /** To a lower paid plan, at the period end. */
  | { kind: 'downgrade' }
  /** To free: a cancellation at the period end. */
  | { kind: 'cancel' }
  /** The current plan again, undoing a scheduled downgrade. */
  | { kind: 'keep-current' }
  /** The current plan again, undoing a cancellation. */
  | { kind: 'withdraw-cancellation' }
  | { kind: 'unchanged' }
);

/**
 * Subscribe's guard on a paid plan: what changing to `plan` at `at` would do, or the rule it
 * breaks. The handler asks it before telling the payment provider; `decide` builds its
 * events from it, so the two never disagree.
 */
export function planChange(state: SubscriptionState, plan: PlanChoice, at: Date): PlanChange {
  const { paid: current, status } = paid(state);
  if (status === 'past_due') throw ruleBroken('Your last payment failed: update your payment before changing plans.');
  if (plan.planId === current.planId) {
    if (current.scheduledPlanId) return { current, kind: 'keep-current' };
    return { current, kind: current.cancelAtPeriodEnd ? 'withdraw-cancellation' : 'unchanged' };
  }
  if (plan.planId === FREE_PLAN_ID) return { current, kind: current.cancelAtPeriodEnd ? 'unchanged' : 'cancel' };
  if (plan.terms.tier > current.tier) {
    const priceCents = cyclePriceCents(plan.terms, current.cycle);
    return { current, kind: 'upgrade', priceCents, prorationCents: prorationCents(current, priceCents, at) };
  }
  return { current, kind: 'downgrade' };
}

/**
 * The customer's cancel guard: the paid period a cancellation would end, or null when it is
 * already set to end. Throws on the free plan, where there is nothing to cancel.
 */
export function cancellable(state: SubscriptionState): PaidPeriod | null {
  const current = paid(state).paid;
  return current.cancelAtPeriodEnd ? null : current;
}

/** Provider news no newer than the cancellation news already applied. */
const staleNews = (current: PaidPeriod, newsAt: Date | undefined) =>
  newsAt !== undefined && current.cancellationNewsAt !== null && newsAt.toISOString() <= current.cancellationNewsAt;

/** Appends EntitlementsChanged when what the subscriber may do differs from before. */
function withEntitlements(state: SubscriptionState, events: SubscriptionEvent[], next: Entitlements): SubscriptionEvent[] {
  return sameEntitlements(state.entitlements, next) ? events : [...events, { type: 'EntitlementsChanged', data: next }];
}

function changePlan(state: SubscriptionState, plan: PlanChoice, at: Date): SubscriptionEvent[] {
  const change = planChange(state, plan, at);
  const { current } = change;
  switch (change.kind) {
    case 'upgrade': {
      const { priceCents, prorationCents } = change;
      const upgraded: SubscriptionEvent = {
        type: 'SubscriptionUpgraded',
        data: { fromPlanId: current.planId, toPlanId: plan.planId, tier: plan.terms.tier, priceCents, prorationCents },
      };
      return withEntitlements(state, [upgraded], entitlementsOf(plan.planId, plan.terms, current.periodEnd));
    }
    case 'downgrade':
      return [{ type: 'DowngradeScheduled', data: { toPlanId: plan.planId, effectiveAt: current.periodEnd } }];
    case 'cancel':
      return [{ type: 'CancellationScheduled', data: { effectiveAt: current.periodEnd, providerNewsAt: null } }];
    case 'keep-current':
      return [{ type: 'DowngradeScheduled', data: { toPlanId: current.planId, effectiveAt: current.periodEnd } }];
    case 'withdraw-cancellation':
      return [{ type: 'CancellationWithdrawn', data: { providerNewsAt: null } }];
    case 'unchanged':
      return [];
    default:
      return unreachable(change);
  }
}

/**
 * One user's subscription. Free until a checkout is paid; upgrades take effect at once
 * (with a prorated charge), downgrades and cancellations at the period end; a failed
 * renewal makes it past due until the grace period ends, then it falls back to free.
 * Provider news may come twice or out of order: every decision here is idempotent and only
 * moves forward.
 */
export const subscriptionDecider: Decider<SubscriptionCommand, SubscriptionEvent, SubscriptionState> = {
  initialState: () => ({ status: 'free', openCheckouts: [], completedCheckouts: [], endedProviderSubscriptions: [], entitlements: null }),

  decide(command, state) {
    switch (command.type) {
      case 'StartCheckout': {
        if (state.status !== 'free') throw ruleBroken('You already have a paid subscription: change its plan instead.');
        if (command.planId === FREE_PLAN_ID) throw ruleBroken('You are already on the free plan.');
        const { sessionId, planId, cycle, provider } = command;
        return [{ type: 'CheckoutStarted', data: { sessionId, planId, cycle, provider } }];
      }
      case 'ActivateSubscription': {
        const { plan, cycle, provider, providerSubscriptionId, checkoutSessionId } = command;
        if (checkoutSessionId && state.completedCheckouts.includes(checkoutSessionId)) return [];
        if (providerSubscriptionId && state.endedProviderSubscriptions.includes(providerSubscriptionId)) return [];
        if (providerSubscriptionId && state.status !== 'free' && state.paid.providerSubscriptionId === providerSubscriptionId) return [];
        if (command.periodEnd <= command.at) return [];
        const periodEnd = command.periodEnd.toISOString();
        const activated: SubscriptionEvent = {
          type: 'SubscriptionActivated',
          data: {
            planId: plan.planId,
            tier: plan.terms.tier,
            priceCents: cyclePriceCents(plan.terms, cycle),
            cycle,
            periodStart: command.periodStart.toISOString(),
            periodEnd,
            provider,
            providerSubscriptionId,
            checkoutSessionId,
          },
        };
        return withEntitlements(state, [activated], entitlementsOf(plan.planId, plan.terms, periodEnd));
      }
      case 'ChangePlan':
        return changePlan(state, command.plan, command.at);
      case 'CancelAtPeriodEnd': {
        if (state.status === 'free' && command.providerNewsAt) return []; // news of a subscription already over
        if (state.status !== 'free' && staleNews(state.paid, command.providerNewsAt)) return [];
        const current = cancellable(state);
        if (!current) return [];
        const providerNewsAt = command.providerNewsAt?.toISOString() ?? null;
        return [{ type: 'CancellationScheduled', data: { effectiveAt: current.periodEnd, providerNewsAt } }];
      }
      case 'WithdrawCancellation': {
        if (state.status === 'free' || !state.paid.cancelAtPeriodEnd || staleNews(state.paid, command.providerNewsAt)) return [];
        return [{ type: 'CancellationWithdrawn', data: { providerNewsAt: command.providerNewsAt?.toISOString() ?? null } }];
      }
      case 'RenewSubscription': {
        if (state.status === 'free' || command.periodEnd.toISOString() <= state.paid.periodEnd) return [];
        const current = state.paid;
        const events: SubscriptionEvent[] = [];
        let entitlements = state.entitlements!;
        const scheduled = command.scheduledPlan;
        if (current.scheduledPlanId && scheduled?.planId === current.scheduledPlanId) {
          const priceCents = cyclePriceCents(scheduled.terms, current.cycle);
          events.push({
            type: 'DowngradeApplied',
            data: { fromPlanId: current.planId, toPlanId: scheduled.planId, tier: scheduled.terms.tier, priceCents },
          });
          entitlements = entitlementsOf(scheduled.planId, scheduled.terms, null);
        }
        const periodEnd = command.periodEnd.toISOString();
        events.push({ type: 'SubscriptionRenewed', data: { periodStart: command.periodStart.toISOString(), periodEnd } });
        return withEntitlements(state, events, { ...entitlements, expiresAt: periodEnd });
      }
      case 'RecordPaymentFailure':
        if (state.status !== 'active') return [];
        return [{ type: 'SubscriptionPastDue', data: { graceUntil: command.graceUntil.toISOString() } }];
      case 'ExpireSubscription': {
        if (state.status === 'free') return [];
        const current = state.paid;
        const at = command.at.toISOString();
        const due =
          command.reason === 'provider-ended' ||
          command.reason === 'account-deleted' ||
          (command.reason === 'period-ended' && current.cancelAtPeriodEnd && current.periodEnd <= at) ||
          (command.reason === 'grace-ended' && state.status === 'past_due' && current.graceUntil !== null && current.graceUntil <= at);
        if (!due) return [];
        const expired: SubscriptionEvent = { type: 'SubscriptionExpired', data: { planId: current.planId, reason: command.reason } };
        return withEntitlements(state, [expired], entitlementsOf(command.freePlan.planId, command.freePlan.terms, null));
      }
      case 'RefreshEntitlements': {
        // Staff changed the terms of the plan this user is on: the new terms apply now.
        const current = state.entitlements;
        if (!current || current.planId !== command.plan.planId) return [];
        return withEntitlements(state, [], entitlementsOf(command.plan.planId, command.plan.terms, current.expiresAt));
      }
      default:
        return unreachable(command);
    }
  },

  /** Never throws: news of a paid period on a free subscription (none is decided so) is ignored. */
  evolve(state, event) {
    switch (event.type) {
      case 'CheckoutStarted':
        return { ...state, openCheckouts: [...state.openCheckouts, event.data.sessionId] };
      case 'SubscriptionActivated': {
        const d = event.data;
        return {
          ...memoryOf(state),
          status: 'active',
          startedAt: state.status === 'free' ? d.periodStart : state.startedAt,
          openCheckouts: state.openCheckouts.filter((id) => id !== d.checkoutSessionId),
          completedCheckouts: d.checkoutSessionId ? [...state.completedCheckouts, d.checkoutSessionId] : state.completedCheckouts,
          paid: {
            planId: d.planId,
            tier: d.tier,
            priceCents: d.priceCents,
            cycle: d.cycle,
            periodStart: d.periodStart,
            periodEnd: d.periodEnd,
            provider: d.provider,
            providerSubscriptionId: d.providerSubscriptionId,
            cancelAtPeriodEnd: false,
            cancellationNewsAt: null,
            scheduledPlanId: null,
            graceUntil: null,
          },
        };
      }
      case 'SubscriptionExpired': {
        const ended = state.status === 'free' ? null : state.paid.providerSubscriptionId;
        const memory = memoryOf(state);
        return {
          ...memory,
          status: 'free',
          endedProviderSubscriptions: ended ? [...memory.endedProviderSubscriptions, ended] : memory.endedProviderSubscriptions,
        };
      }
      case 'EntitlementsChanged':
        return { ...state, entitlements: event.data };
    }
    if (state.status === 'free') return state;
    const current = state.paid;
    switch (event.type) {
      case 'SubscriptionUpgraded':
      case 'DowngradeApplied': {
        const { toPlanId: planId, tier, priceCents } = event.data;
        return { ...state, paid: { ...current, planId, tier, priceCents, scheduledPlanId: null } };
      }
      case 'DowngradeScheduled': {
        const scheduledPlanId = event.data.toPlanId === current.planId ? null : event.data.toPlanId;
        return { ...state, paid: { ...current, scheduledPlanId } };
      }
      case 'CancellationScheduled': {
        const cancellationNewsAt = event.data.providerNewsAt ?? current.cancellationNewsAt;
        return { ...state, paid: { ...current, cancelAtPeriodEnd: true, scheduledPlanId: null, cancellationNewsAt } };
      }
      case 'CancellationWithdrawn': {
        const cancellationNewsAt = event.data.providerNewsAt ?? current.cancellationNewsAt;
        return { ...state, paid: { ...current, cancelAtPeriodEnd: false, cancellationNewsAt } };
      }
      case 'SubscriptionRenewed': {
        const { periodStart, periodEnd } = event.data;
        return { ...state, status: 'active', paid: { ...current, periodStart, periodEnd, graceUntil: null } };
      }
      case 'SubscriptionPastDue':
        return { ...state, status: 'past_due', paid: { ...current, graceUntil: event.data.graceUntil } };
      default:
        return unreachable(event);
    }
  },
};

/** The part of the state a subscription keeps across paid and free. */
function memoryOf(state: SubscriptionState): Memory {
  const { openCheckouts, completedCheckouts, endedProviderSubscriptions, entitlements } = state;
  return { openCheckouts, completedCheckouts, endedProviderSubscriptions, entitlements };
}
