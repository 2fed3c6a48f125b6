import type { BillingCycle } from '../../../../contracts/src/billing/billing.contract';
import { type Decider, unreachable } from '../../platform/domain/decider';
import { ruleBroken } from '../../platform/domain/errors';
import { type Entitlements, entitlementsOf, FREE_PLAN_ID, type PlanTerms, sameEntitlements } from './plan';

export type PaymentProviderName = 'stripe' | 'simulated';

/** A period that has been paid for, on a paid plan. */
interface PaidPeriod {
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

export interface SubscriptionState {
  status: 'free' | 'active' | 'past_due';
  paid: PaidPeriod | null;
  startedAt: string | null;
  /** Checkout sessions started and completed: completion is idempotent by session. */
  openCheckouts: string[];
  completedCheckouts: string[];
  /** Provider subscriptions that ended: late news about them never brings them back. */
  endedProviderSubscriptions: string[];
  entitlements: Entitlements | null;
}

/** The plan a command moves to, as the handler read it from the plan's stream. */
export interface PlanChoice {
  planId: string;
  terms: PlanTerms;
}

export type SubscriptionCommand =
  | { type: 'StartCheckout'; at: Date; sessionId: string; planId: string; cycle: BillingCycle; provider: PaymentProviderName }
  | {
      type: 'ActivateSubscription';
      at: Date;
      plan: PlanChoice;
      cycle: BillingCycle;
      periodStart: Date;
      periodEnd: Date;
      provider: PaymentProviderName;
      providerSubscriptionId: string | null;
      checkoutSessionId: string | null;
    }
  | { type: 'ChangePlan'; at: Date; plan: PlanChoice }
  | { type: 'CancelAtPeriodEnd'; at: Date; providerNewsAt?: Date }
  | { type: 'WithdrawCancellation'; at: Date; providerNewsAt?: Date }
  | { type: 'RenewSubscription'; at: Date; periodStart: Date; periodEnd: Date; scheduledPlan: PlanChoice | null }
  | { type: 'RecordPaymentFailure'; at: Date; graceUntil: Date }
  | {
      type: 'ExpireSubscription';
      at: Date;
      reason: 'period-ended' | 'grace-ended' | 'provider-ended' | 'account-deleted';
      freePlan: PlanChoice;
    }
  | { type: 'RefreshEntitlements'; at: Date; plan: PlanChoice };

type Changed = { entitlements: Entitlements };

export type SubscriptionEvent =
  | { type: 'CheckoutStarted'; data: { sessionId: string; planId: string; cycle: BillingCycle; provider: PaymentProviderName } }
  | {
      type: 'SubscriptionActivated';
      data: {
        planId: string;
        tier: number;
        priceCents: number;
        cycle: BillingCycle;
        periodStart: string;
        periodEnd: string;
        provider: PaymentProviderName;
        providerSubscriptionId: string | null;
        checkoutSessionId: string | null;
      };
    }
  | {
      type: 'SubscriptionUpgraded';
      data: { fromPlanId: string; toPlanId: string; tier: number; priceCents: number; prorationCents: number };
    }
  | { type: 'DowngradeScheduled'; data: { toPlanId: string; effectiveAt: string } }
  | { type: 'CancellationScheduled'; data: { effectiveAt: string; providerNewsAt: string | null } }
  | { type: 'CancellationWithdrawn'; data: { providerNewsAt: string | null } }
  | { type: 'DowngradeApplied'; data: { fromPlanId: string; toPlanId: string; tier: number; priceCents: number } }
  | { type: 'SubscriptionRenewed'; data: { periodStart: string; periodEnd: string } }
  | { type: 'SubscriptionPastDue'; data: { graceUntil: string } }
  | { type: 'SubscriptionExpired'; data: { planId: string; reason: 'period-ended' | 'grace-ended' | 'provider-ended' | 'account-deleted' } }
  | { type: 'EntitlementsChanged'; data: Changed['entitlements'] };

const noSubscription = () => ruleBroken('You are on the free plan: there is no paid subscription to change.');

function paid(state: SubscriptionState): PaidPeriod {
  if (!state.paid) throw noSubscription();
  return state.paid;
}

/** The price of a plan for a cycle, in cents. */
export const cyclePriceCents = (terms: PlanTerms, cycle: BillingCycle) => (cycle === 'yearly' ? terms.yearlyPriceCents : terms.priceCents);

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

/** Appends EntitlementsChanged when what the subscriber may do differs from before. */
function withEntitlements(state: SubscriptionState, events: SubscriptionEvent[], next: Entitlements): SubscriptionEvent[] {
  return sameEntitlements(state.entitlements, next) ? events : [...events, { type: 'EntitlementsChanged', data: next }];
}

/**
 * One user's subscription. Free until a checkout is paid; upgrades take effect at once
 * (with a prorated charge), downgrades and cancellations at the period end; a failed
 * renewal makes it past due until the grace period ends, then it falls back to free.
 * Provider news may come twice or out of order: every decision here is idempotent and only
 * moves forward.
 */
export const subscriptionDecider: Decider<SubscriptionCommand, SubscriptionEvent, SubscriptionState> = {
  initialState: () => ({
    status: 'free',
    paid: null,
    startedAt: null,
    openCheckouts: [],
    completedCheckouts: [],
    endedProviderSubscriptions: [],
    entitlements: null,
  }),

  decide(command, state) {
    switch (command.type) {
      case 'StartCheckout': {
        if (state.paid) throw ruleBroken('You already have a paid subscription: change its plan instead.');
        if (command.planId === FREE_PLAN_ID) throw ruleBroken('You are already on the free plan.');
        const { sessionId, planId, cycle, provider } = command;
        return [{ type: 'CheckoutStarted', data: { sessionId, planId, cycle, provider } }];
      }
      case 'ActivateSubscription': {
        const { plan, cycle, provider, providerSubscriptionId, checkoutSessionId } = command;
        if (checkoutSessionId && state.completedCheckouts.includes(checkoutSessionId)) return [];
        if (providerSubscriptionId && state.endedProviderSubscriptions.includes(providerSubscriptionId)) return [];
        if (providerSubscriptionId && state.paid?.providerSubscriptionId === providerSubscriptionId) return [];
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
      case 'ChangePlan': {
        const current = paid(state);
        const { planId, terms } = command.plan;
        if (state.status === 'past_due') throw ruleBroken('Your last payment failed: update your payment before changing plans.');
        if (planId === current.planId) {
          // Choosing the current plan again undoes a scheduled downgrade or cancellation.
          if (current.scheduledPlanId)
            return [{ type: 'DowngradeScheduled', data: { toPlanId: current.planId, effectiveAt: current.periodEnd } }];
          if (current.cancelAtPeriodEnd) return [{ type: 'CancellationWithdrawn', data: { providerNewsAt: null } }];
          return [];
        }
        if (planId === FREE_PLAN_ID) {
          return current.cancelAtPeriodEnd
            ? []
            : [{ type: 'CancellationScheduled', data: { effectiveAt: current.periodEnd, providerNewsAt: null } }];
        }
        if (terms.tier > current.tier) {
          const priceCents = cyclePriceCents(terms, current.cycle);
          const upgraded: SubscriptionEvent = {
            type: 'SubscriptionUpgraded',
            data: {
              fromPlanId: current.planId,
              toPlanId: planId,
              tier: terms.tier,
              priceCents,
              prorationCents: prorationCents(current, priceCents, command.at),
            },
          };
          return withEntitlements(state, [upgraded], entitlementsOf(planId, terms, current.periodEnd));
        }
        return [{ type: 'DowngradeScheduled', data: { toPlanId: planId, effectiveAt: current.periodEnd } }];
      }
      case 'CancelAtPeriodEnd': {
        if (!state.paid && command.providerNewsAt) return []; // news of a subscription already over
        const current = paid(state);
        if (command.providerNewsAt && current.cancellationNewsAt && command.providerNewsAt.toISOString() <= current.cancellationNewsAt)
          return [];
        if (current.cancelAtPeriodEnd) return [];
        return [
          {
            type: 'CancellationScheduled',
            data: { effectiveAt: current.periodEnd, providerNewsAt: command.providerNewsAt?.toISOString() ?? null },
          },
        ];
      }
      case 'WithdrawCancellation': {
        const current = state.paid;
        if (!current || !current.cancelAtPeriodEnd) return [];
        if (command.providerNewsAt && current.cancellationNewsAt && command.providerNewsAt.toISOString() <= current.cancellationNewsAt)
          return [];
        return [{ type: 'CancellationWithdrawn', data: { providerNewsAt: command.providerNewsAt?.toISOString() ?? null } }];
      }
      case 'RenewSubscription': {
        const current = state.paid;
        if (!current || command.periodEnd.toISOString() <= current.periodEnd) return [];
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
        const current = state.paid;
        if (!current) return [];
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

  evolve(state, event) {
    switch (event.type) {
      case 'CheckoutStarted':
        return { ...state, openCheckouts: [...state.openCheckouts, event.data.sessionId] };
      case 'SubscriptionActivated': {
        const d = event.data;
        return {
          ...state,
          status: 'active',
          startedAt: state.paid ? state.startedAt : d.periodStart,
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
      case 'SubscriptionUpgraded':
        return {
          ...state,
          paid: {
            ...paid(state),
            planId: event.data.toPlanId,
            tier: event.data.tier,
            priceCents: event.data.priceCents,
            scheduledPlanId: null,
          },
        };
      case 'DowngradeScheduled': {
        const current = paid(state);
        return { ...state, paid: { ...current, scheduledPlanId: event.data.toPlanId === current.planId ? null : event.data.toPlanId } };
      }
      case 'CancellationScheduled':
        return {
          ...state,
          paid: {
            ...paid(state),
            cancelAtPeriodEnd: true,
            scheduledPlanId: null,
            cancellationNewsAt: event.data.providerNewsAt ?? paid(state).cancellationNewsAt,
          },
        };
      case 'CancellationWithdrawn':
        return {
          ...state,
          paid: {
            ...paid(state),
            cancelAtPeriodEnd: false,
            cancellationNewsAt: event.data.providerNewsAt ?? paid(state).cancellationNewsAt,
          },
        };
      case 'DowngradeApplied':
        return {
          ...state,
          paid: {
            ...paid(state),
            planId: event.data.toPlanId,
            tier: event.data.tier,
            priceCents: event.data.priceCents,
            scheduledPlanId: null,
          },
        };
      case 'SubscriptionRenewed':
        return {
          ...state,
          status: 'active',
          paid: { ...paid(state), periodStart: event.data.periodStart, periodEnd: event.data.periodEnd, graceUntil: null },
        };
      case 'SubscriptionPastDue':
        return { ...state, status: 'past_due', paid: { ...paid(state), graceUntil: event.data.graceUntil } };
      case 'SubscriptionExpired': {
        const ended = state.paid?.providerSubscriptionId;
        return {
          ...state,
          status: 'free',
          paid: null,
          endedProviderSubscriptions: ended ? [...state.endedProviderSubscriptions, ended] : state.endedProviderSubscriptions,
        };
      }
      case 'EntitlementsChanged':
        return { ...state, entitlements: event.data };
      default:
        return unreachable(event);
    }
  },
};
