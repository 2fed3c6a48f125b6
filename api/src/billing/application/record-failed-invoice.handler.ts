import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { BillingContext, paymentIdFor } from './billing-context';
import type { ProviderInvoice } from './provider-invoice';

export class RecordFailedInvoice {
  constructor(
    readonly invoice: Omit<ProviderInvoice, 'refundTarget' | 'period' | 'providerSubscriptionId'>,
    readonly at: Date,
  ) {}
}

/**
 * The provider could not take a payment: it is recorded as failed, and the subscription
 * goes past due for the grace period (BILLING_GRACE_DAYS), after which the clock ends it.
 */
@CommandHandler(RecordFailedInvoice)
export class RecordFailedInvoiceHandler implements ICommandHandler<RecordFailedInvoice, void> {
  constructor(private readonly billing: BillingContext) {}

  async execute({ invoice, at }: RecordFailedInvoice): Promise<void> {
    const { invoiceId, userId, planId, kind, amountCents } = invoice;
    await this.billing.payments.execute(paymentIdFor('stripe', invoiceId), {
      type: 'RecordPayment',
      at,
      outcome: 'failed',
      failureReason: 'The card was declined at renewal.',
      userId,
      planId,
      amountCents,
      currency: 'USD',
      kind,
      provider: 'stripe',
      transactionId: invoiceId,
      refundTarget: null,
    });
    const graceUntil = new Date(at.getTime() + this.billing.config.BILLING_GRACE_DAYS * 86_400_000);
    const { position } = await this.billing.subscriptions.execute(userId, { type: 'RecordPaymentFailure', at, graceUntil });
    await this.billing.caughtUp(position, userId);
  }
}
