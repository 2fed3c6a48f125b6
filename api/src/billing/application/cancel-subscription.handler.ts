import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { cancellable } from '../domain/subscription.decider';
import { BillingContext } from './billing-context';

export class CancelSubscription {
  constructor(
    readonly userId: string,
    readonly at: Date,
  ) {}
}

/** Cancels at the period end: the plan stays until then (what the spec's confirm implies). */
@CommandHandler(CancelSubscription)
export class CancelSubscriptionHandler implements ICommandHandler<CancelSubscription, void> {
  constructor(private readonly billing: BillingContext) {}

  async execute({ userId, at }: CancelSubscription): Promise<void> {
    const { state } = await this.billing.subscriptions.load(userId);
    const providerSubscriptionId = cancellable(state)?.providerSubscriptionId;
    if (providerSubscriptionId) await this.billing.provider.setCancelAtPeriodEnd(providerSubscriptionId, true);
    const { position } = await this.billing.subscriptions.execute(userId, { type: 'CancelAtPeriodEnd', at });
    await this.billing.caughtUp(position, userId);
  }
}
