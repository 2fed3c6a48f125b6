import type { BillingCycle } from '@meshwork/contracts';
import type { PaymentKind } from '../domain/payment.decider';

/**
 * What billing needs of a payment provider's invoice (Stripe's: read from its webhook by
 * infrastructure/stripe-webhooks.ts). Our user, plan and cycle ride in its metadata.
 */
export interface ProviderInvoice {
  invoiceId: string;
  userId: string;
  planId: string;
  cycle: BillingCycle;
  kind: PaymentKind;
  amountCents: number;
  providerSubscriptionId: string | null;
  /** The period the invoice pays for, when it names one. */
  period: { start: Date; end: Date } | null;
  /** What a refund is issued against (a payment intent or charge); null for a failed one. */
  refundTarget: string | null;
  /** The provider's own invoice number and hosted page, printed beside ours. */
  number: string | null;
  hostedUrl: string | null;
}
