// The billing context's events as other contexts read them: their types and stored names,
// nothing that runs. Any context may import this file.
import { eventTypesOf } from '../platform/domain/event-types';
import type { BillingDetailsEvent } from './domain/billing-details.decider';
import type { InvoiceReceiptEvent } from './domain/invoice-receipt.decider';
import type { InvoiceSeriesEvent } from './domain/invoice-series.decider';
import type { PaymentEvent } from './domain/payment.decider';
import type { PlanEvent } from './domain/plan.decider';
import type { PreferencesEvent } from './domain/preferences.decider';
import type { SubscriptionEvent } from './domain/subscription.events';

export type { BillingDetailsEvent, InvoiceReceiptEvent, InvoiceSeriesEvent, PaymentEvent, PlanEvent, PreferencesEvent, SubscriptionEvent };

/** Every plan event type as stored (stream `plan-<id>`). */
export const PLAN_EVENT_TYPES = eventTypesOf<PlanEvent>()([
  'PlanCreated',
  'PlanUpdated',
  'PlanActivated',
  'PlanDeactivated',
  'PlanArchived',
  'PlanRestored',
]);

/** Every subscription event type as stored (stream `subscription-<user id>`). */
export const SUBSCRIPTION_EVENT_TYPES = eventTypesOf<SubscriptionEvent>()([
  'CheckoutStarted',
  'SubscriptionActivated',
  'SubscriptionUpgraded',
  'DowngradeScheduled',
  'CancellationScheduled',
  'CancellationWithdrawn',
  'DowngradeApplied',
  'SubscriptionRenewed',
  'SubscriptionPastDue',
  'SubscriptionExpired',
  'EntitlementsChanged',
]);

/** Every payment event type as stored (stream `payment-<id>`). */
export const PAYMENT_EVENT_TYPES = eventTypesOf<PaymentEvent>()([
  'PaymentInitiated',
  'PaymentSucceeded',
  'PaymentFailed',
  'PaymentRefunded',
]);

/** Every preferences event type as stored (stream `preferences-<user id>`). */
export const PREFERENCES_EVENT_TYPES = eventTypesOf<PreferencesEvent>()(['PreferencesUpdated']);

/** Every invoice event type as stored (stream `invoices-<series>`, e.g. `invoices-MW-2026`). */
export const INVOICE_EVENT_TYPES = eventTypesOf<InvoiceSeriesEvent>()(['InvoiceIssued']);

/** Every billing-details event type as stored (stream `billingdetails-<user id>`). */
export const BILLING_DETAILS_EVENT_TYPES = eventTypesOf<BillingDetailsEvent>()(['BillingDetailsUpdated']);

/** Every receipt event type as stored (stream `invoicereceipt-<invoice id>`). */
export const INVOICE_RECEIPT_EVENT_TYPES = eventTypesOf<InvoiceReceiptEvent>()(['InvoiceReceiptSent']);
