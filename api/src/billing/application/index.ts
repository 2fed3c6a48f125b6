import { ActivateFromCheckoutHandler } from './activate-from-checkout.handler';
import { ArchivePlanHandler } from './archive-plan.handler';
import { CancelSubscriptionHandler } from './cancel-subscription.handler';
import { CreatePlanHandler } from './create-plan.handler';
import { EndBillingForDeletedAccountHandler } from './end-billing-for-deleted-account.handler';
import { EndProviderSubscriptionHandler } from './end-provider-subscription.handler';
import { IssueInvoiceHandler } from './issue-invoice.handler';
import { RecordFailedInvoiceHandler } from './record-failed-invoice.handler';
import { RecordPaidInvoiceHandler } from './record-paid-invoice.handler';
import { RecordProviderCancellationHandler } from './record-provider-cancellation.handler';
import { RecordProviderRefundsHandler } from './record-provider-refunds.handler';
import { RefundPaymentHandler } from './refund-payment.handler';
import { RestorePlanHandler } from './restore-plan.handler';
import { SeedPlanHandler } from './seed-plan.handler';
import { SendInvoiceReceiptHandler } from './send-invoice-receipt.handler';
import { SettleBillingPeriodHandler } from './settle-billing-period.handler';
import { SettleSimulatedCheckoutHandler } from './settle-simulated-checkout.handler';
import { SubscribeHandler } from './subscribe.handler';
import { UpdateBillingDetailsHandler } from './update-billing-details.handler';
import { UpdatePlanHandler } from './update-plan.handler';
import { UpdatePreferencesHandler } from './update-preferences.handler';
import { VerifyCheckoutHandler } from './verify-checkout.handler';

/** Every billing append goes through one of these (see platform/domain/one-write-path.unit.spec.ts). */
export const billingCommandHandlers = [
  // plans
  SeedPlanHandler,
  CreatePlanHandler,
  UpdatePlanHandler,
  ArchivePlanHandler,
  RestorePlanHandler,
  // subscriptions and payments, from the customer
  SubscribeHandler,
  CancelSubscriptionHandler,
  ActivateFromCheckoutHandler,
  SettleSimulatedCheckoutHandler,
  VerifyCheckoutHandler,
  UpdatePreferencesHandler,
  UpdateBillingDetailsHandler,
  // from staff, the account deletion and the clock
  RefundPaymentHandler,
  EndBillingForDeletedAccountHandler,
  SettleBillingPeriodHandler,
  // from the payment provider's webhooks
  RecordPaidInvoiceHandler,
  RecordFailedInvoiceHandler,
  RecordProviderCancellationHandler,
  EndProviderSubscriptionHandler,
  RecordProviderRefundsHandler,
  // from the log: a payment's invoice, a refund's credit note
  IssueInvoiceHandler,
  SendInvoiceReceiptHandler,
];
