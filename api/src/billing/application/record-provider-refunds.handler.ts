import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { conflict } from '../../platform/domain/errors';
import { BillingContext } from './billing-context';
import { BillingQueries } from './billing.query';

export class RecordProviderRefunds {
  constructor(
    /** What the refunds were issued against, most specific first (payment intent, then charge). */
    readonly refundTargets: string[],
    readonly refunds: { refundId: string; amountCents: number; reason: string }[],
    readonly at: Date,
  ) {}
}

/**
 * The provider refunded a payment (from the console, or at the provider itself). Each refund
 * counts once by its id, so the console's refund reported back changes nothing.
 */
@CommandHandler(RecordProviderRefunds)
export class RecordProviderRefundsHandler implements ICommandHandler<RecordProviderRefunds, void> {
  constructor(
    private readonly billing: BillingContext,
    private readonly queries: BillingQueries,
  ) {}

  async execute({ refundTargets, refunds, at }: RecordProviderRefunds): Promise<void> {
    let paymentId: string | null = null;
    for (const target of refundTargets) paymentId ??= await this.queries.paymentByRefundTarget(target);
    // Not known yet (the invoice news is still on its way): a conflict, which the provider retries.
    if (!paymentId) throw conflict('The refunded payment is not known yet; retry later.');
    let position = 0;
    for (const { refundId, amountCents, reason } of refunds) {
      const result = await this.billing.payments.execute(paymentId, { type: 'RefundPayment', at, refundId, amountCents, reason });
      position = Math.max(position, result.position);
    }
    await this.billing.caughtUp(position);
  }
}
