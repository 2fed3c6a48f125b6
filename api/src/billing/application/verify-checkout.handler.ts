import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { notFound } from '../../platform/domain/errors';
import { ActivateFromCheckout } from './activate-from-checkout.handler';
import { BillingContext } from './billing-context';

export class VerifyCheckout {
  constructor(
    readonly userId: string,
    readonly sessionId: string,
    readonly at: Date,
  ) {}
}

/** The site's return from checkout: asks the provider and activates a paid checkout now. */
@CommandHandler(VerifyCheckout)
export class VerifyCheckoutHandler implements ICommandHandler<VerifyCheckout, void> {
  constructor(
    private readonly billing: BillingContext,
    private readonly commands: CommandBus,
  ) {}

  async execute({ userId, sessionId, at }: VerifyCheckout): Promise<void> {
    const checkout = await this.billing.provider.checkout(sessionId).catch(() => null);
    if (!checkout || checkout.userId !== userId) throw notFound();
    await this.commands.execute(new ActivateFromCheckout(checkout, at));
  }
}
