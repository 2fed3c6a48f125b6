import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { paidPeriod } from '../domain/subscription.decider';
import { BillingContext, paymentIdFor } from './billing-context';
import type { ProviderInvoice } from './provider-invoice';

export class RecordPaidInvoice {
  constructor(
    readonly invoice: ProviderInvoice,
    readonly at: Date,
  ) {}
}

/**
 * The provider was paid: the payment is recorded (once per invoice, however often the news
 * comes). A first invoice activates the subscription, as it may arrive before the checkout's
 * completion; a renewal's moves it into the new period, applying a scheduled downgrade.
 */
@CommandHandler(RecordPaidInvoice)
export class RecordPaidInvoiceHandler implements ICommandHandler<RecordPaidInvoice, void> {
  constructor(private readonly billing: BillingContext) {}

  async execute({ invoice, at }: RecordPaidInvoice): Promise<void> {
    const { invoiceId, userId, planId, cycle, kind, amountCents, period } = invoice;
    const payment = await this.billing.payments.execute(paymentIdFor('stripe', invoiceId), {
      type: 'RecordPayment',
      at,
      outcome: 'succeeded',
      userId,
      planId,
      amountCents,
      currency: 'USD',
      kind,
      provider: 'stripe',
      transactionId: invoiceId,
      refundTarget: invoice.refundTarget,
      providerInvoice: { number: invoice.number, url: invoice.hostedUrl },
    });
    let position = payment.position;
    if (kind === 'subscription' && period) {
      const plan = await this.billing.planChoice(planId, { archivedToo: true, inactiveToo: true });
      const activated = await this.billing.subscriptions.execute(userId, {
        type: 'ActivateSubscription',
        at,
        plan,
        cycle,
        periodStart: period.start,
        periodEnd: period.end,
        provider: 'stripe',
        providerSubscriptionId: invoice.providerSubscriptionId,
        checkoutSessionId: null,
      });
      position = Math.max(position, activated.position);
    }
    if (kind === 'renewal' && period) {
      const { state } = await this.billing.subscriptions.load(userId);
      const scheduledPlanId = paidPeriod(state)?.scheduledPlanId;
      const scheduled = scheduledPlanId ? await this.billing.planChoice(scheduledPlanId, { archivedToo: true, inactiveToo: true }) : null;
      const renewed = await this.billing.subscriptions.execute(userId, {
        type: 'RenewSubscription',
        at,
        periodStart: period.start,
        periodEnd: period.end,
        scheduledPlan: scheduled,
      });
      position = Math.max(position, renewed.position);
    }
    await this.billing.caughtUp(position, userId);
  }
}
