import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CheckoutSnapshot } from '../../platform/payments/payment-provider';
import { BillingContext, paymentIdFor, periodEnd } from './billing-context';

export class ActivateFromCheckout {
  constructor(
    readonly checkout: CheckoutSnapshot,
    readonly at: Date,
  ) {}
}

/**
 * A paid checkout becomes an active subscription (from the webhook, the verify call or the
 * simulated page, whichever comes first; the rest change nothing). The simulated provider's
 * payment is recorded here; Stripe's arrives as its invoice webhook.
 */
@CommandHandler(ActivateFromCheckout)
export class ActivateFromCheckoutHandler implements ICommandHandler<ActivateFromCheckout, number> {
  constructor(private readonly billing: BillingContext) {}

  async execute({ checkout, at }: ActivateFromCheckout): Promise<number> {
    const { userId, planId, cycle } = checkout;
    if (!checkout.paid || !userId || !planId || !cycle) return 0;
    // A plan archived after checkout began is still honoured: the customer paid for it.
    const plan = await this.billing.planChoice(planId, { archivedToo: true, inactiveToo: true });
    const mode = this.billing.provider.mode;
    let { position } = await this.billing.subscriptions.execute(userId, {
      type: 'ActivateSubscription',
      at,
      plan,
      cycle,
      periodStart: at,
      periodEnd: periodEnd(at, cycle, plan.terms.durationDays),
      provider: mode,
      providerSubscriptionId: checkout.providerSubscriptionId,
      checkoutSessionId: checkout.sessionId,
    });
    if (mode === 'simulated') {
      const payment = await this.billing.payments.execute(paymentIdFor('simulated', checkout.sessionId), {
        type: 'RecordPayment',
        at,
        outcome: 'succeeded',
        userId,
        planId,
        amountCents: checkout.amountCents,
        currency: 'USD',
        kind: 'subscription',
        provider: 'simulated',
        transactionId: checkout.sessionId,
        refundTarget: checkout.sessionId,
      });
      position = Math.max(position, payment.position);
    }
    await this.billing.caughtUp(position, userId);
    return position;
  }
}
