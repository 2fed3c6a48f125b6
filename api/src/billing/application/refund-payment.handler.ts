import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ruleBroken } from '../../platform/domain/errors';
import { refundable } from '../domain/payment.decider';
import { BillingContext } from './billing-context';

export class RefundPayment {
  constructor(
    readonly paymentId: string,
    readonly amountCents: number,
    readonly reason: string,
    readonly at: Date,
  ) {}
}

/**
 * Staff refund all or part of a completed payment through the provider, then record it;
 * returns once the read model shows it.
 */
@CommandHandler(RefundPayment)
export class RefundPaymentHandler implements ICommandHandler<RefundPayment, void> {
  constructor(private readonly billing: BillingContext) {}

  async execute({ paymentId, amountCents, reason, at }: RefundPayment): Promise<void> {
    const { state } = await this.billing.payments.load(paymentId);
    // The rules before money moves: the provider is asked only for a refund the decider allows.
    const { refundTarget } = refundable(state, amountCents);
    if (!refundTarget) throw ruleBroken('This payment cannot be refunded through its provider.');
    const { refundId } = await this.billing.provider.refund(refundTarget, amountCents, reason);
    const { position } = await this.billing.payments.execute(paymentId, { type: 'RefundPayment', at, refundId, amountCents, reason });
    await this.billing.caughtUp(position);
  }
}
