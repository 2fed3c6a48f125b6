import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { BillingContext } from './billing-context';

export class RecordProviderCancellation {
  constructor(
    readonly userId: string,
    /** Whether the provider's subscription now ends at its period end. */
    readonly cancelAtPeriodEnd: boolean,
    /** When the provider made the news: older news than what was applied changes nothing. */
    readonly at: Date,
  ) {}
}

/** The provider says the subscription will (or will no longer) end at its period end. */
@CommandHandler(RecordProviderCancellation)
export class RecordProviderCancellationHandler implements ICommandHandler<RecordProviderCancellation, void> {
  constructor(private readonly billing: BillingContext) {}

  async execute({ userId, cancelAtPeriodEnd, at }: RecordProviderCancellation): Promise<void> {
    const { position } = await this.billing.subscriptions.execute(userId, {
      type: cancelAtPeriodEnd ? 'CancelAtPeriodEnd' : 'WithdrawCancellation',
      at,
      providerNewsAt: at,
    });
    await this.billing.caughtUp(position, userId);
  }
}
