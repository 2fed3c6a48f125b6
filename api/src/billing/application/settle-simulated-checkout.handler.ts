import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { notFound, ruleBroken } from '../../platform/domain/errors';
import { SimulatedPayments } from '../../platform/payments/payment-provider';
import { ActivateFromCheckout } from './activate-from-checkout.handler';
import { BillingContext } from './billing-context';

export class SettleSimulatedCheckout {
  constructor(
    readonly userId: string,
    readonly sessionId: string,
    readonly outcome: 'complete' | 'expired',
    readonly at: Date,
  ) {}
}

/** The simulated checkout page's Pay and Cancel buttons; only its owner may press them. */
@CommandHandler(SettleSimulatedCheckout)
export class SettleSimulatedCheckoutHandler implements ICommandHandler<SettleSimulatedCheckout, void> {
  constructor(
    private readonly billing: BillingContext,
    private readonly commands: CommandBus,
  ) {}

  async execute({ userId, sessionId, outcome, at }: SettleSimulatedCheckout): Promise<void> {
    const provider = this.billing.provider;
    if (!(provider instanceof SimulatedPayments)) throw notFound();
    const checkout = await provider.checkout(sessionId);
    if (!checkout || checkout.userId !== userId) throw notFound();
    if (!(await provider.settle(sessionId, outcome)) && !(outcome === 'complete' && checkout.paid)) {
      throw ruleBroken('This checkout has already ended.');
    }
    if (outcome === 'complete') await this.commands.execute(new ActivateFromCheckout({ ...checkout, paid: true }, at));
  }
}
