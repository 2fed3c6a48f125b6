import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { paidPeriod } from '../domain/subscription.decider';
import { BillingContext } from './billing-context';

export class EndProviderSubscription {
  constructor(
    readonly userId: string,
    readonly providerSubscriptionId: string,
    readonly at: Date,
  ) {}
}

/** The provider ended a subscription: the user falls back to free now, unless it is an older one. */
@CommandHandler(EndProviderSubscription)
export class EndProviderSubscriptionHandler implements ICommandHandler<EndProviderSubscription, void> {
  constructor(private readonly billing: BillingContext) {}

  async execute({ userId, providerSubscriptionId, at }: EndProviderSubscription): Promise<void> {
    const { state } = await this.billing.subscriptions.load(userId);
    if (paidPeriod(state)?.providerSubscriptionId !== providerSubscriptionId) return; // news of an older subscription
    const { position } = await this.billing.subscriptions.execute(userId, {
      type: 'ExpireSubscription',
      at,
      reason: 'provider-ended',
      freePlan: await this.billing.freePlan(),
    });
    await this.billing.caughtUp(position, userId);
  }
}
