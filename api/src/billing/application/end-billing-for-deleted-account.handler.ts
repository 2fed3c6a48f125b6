import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { paidPeriod } from '../domain/subscription.decider';
import { BillingContext } from './billing-context';
import { EndBillingForDeletedAccount } from '../../identity';

/** Account deletion: the paid subscription ends now, at the provider first. */
@CommandHandler(EndBillingForDeletedAccount)
export class EndBillingForDeletedAccountHandler implements ICommandHandler<EndBillingForDeletedAccount, void> {
  constructor(private readonly billing: BillingContext) {}

  async execute({ userId, at }: EndBillingForDeletedAccount): Promise<void> {
    const { state } = await this.billing.subscriptions.load(userId);
    const current = paidPeriod(state);
    if (!current) return;
    if (current.providerSubscriptionId) await this.billing.provider.cancelNow(current.providerSubscriptionId);
    const freePlan = await this.billing.freePlan();
    const { position } = await this.billing.subscriptions.execute(userId, {
      type: 'ExpireSubscription',
      at,
      reason: 'account-deleted',
      freePlan,
    });
    await this.billing.caughtUp(position);
  }
}
