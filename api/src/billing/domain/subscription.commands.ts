import type { BillingCycle } from '@meshwork/contracts';
import type { PlanTerms } from './plan';
import type { ExpiryReason, PaymentProviderName } from './subscription.events';

/** The plan a command moves to, as the handler read it from the plan's stream. */
export interface PlanChoice {
  planId: string;
  terms: PlanTerms;
}

/**
 * What can be asked of a user's subscription. `at` is the time of the request, and
 * `providerNewsAt` the time the payment provider's news was made: deciders read no clock.
 */
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
  | { type: 'ExpireSubscription'; at: Date; reason: ExpiryReason; freePlan: PlanChoice }
  | { type: 'RefreshEntitlements'; at: Date; plan: PlanChoice };
