import type { BillingCycle } from '@meshwork/contracts';
import type { Entitlements } from './plan';

export type PaymentProviderName = 'stripe' | 'simulated';

export type ExpiryReason = 'period-ended' | 'grace-ended' | 'provider-ended' | 'account-deleted';

/**
 * What happened to a user's subscription (stream `subscription-<user id>`). The type names
 * and shapes are stored schema: never rename one; add a new version and an upcaster.
 */
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
  | { type: 'SubscriptionExpired'; data: { planId: string; reason: ExpiryReason } }
  | { type: 'EntitlementsChanged'; data: Entitlements };
