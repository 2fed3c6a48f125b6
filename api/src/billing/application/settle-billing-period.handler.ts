import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { cyclePriceCents } from '../domain/plan';
import { paidPeriod } from '../domain/subscription.decider';
import { BillingContext, paymentIdFor, periodEnd } from './billing-context';

export class SettleBillingPeriod {
  constructor(
    readonly userId: string,
    /** The clock's time: what is due by then is settled. */
    readonly at: Date,
  ) {}
}

/**
 * The billing clock's work for one subscriber: a cancelled subscription whose period ended
 * expires to free, a past-due one whose grace ran out falls back to free, and a simulated
 * one renews (with its scheduled downgrade applied). Stripe renews its own subscriptions
 * and says so by webhook. Idempotent, so several api instances may tick at once. Answers
 * whether the subscription changed.
 */
@CommandHandler(SettleBillingPeriod)
export class SettleBillingPeriodHandler implements ICommandHandler<SettleBillingPeriod, boolean> {
  constructor(private readonly billing: BillingContext) {}

  async execute({ userId, at }: SettleBillingPeriod): Promise<boolean> {
    const { billing } = this;
    const { state } = await billing.subscriptions.load(userId);
    const paid = paidPeriod(state);
    if (!paid) return false;
    if (state.status === 'past_due' && paid.graceUntil && paid.graceUntil <= at.toISOString()) {
      if (paid.providerSubscriptionId) await billing.provider.cancelNow(paid.providerSubscriptionId).catch(() => undefined);
      return this.expire(userId, 'grace-ended', at);
    }
    if (paid.periodEnd > at.toISOString()) return false;
    if (paid.cancelAtPeriodEnd) return this.expire(userId, 'period-ended', at);
    if (paid.provider !== 'simulated') return false;

    // The simulated provider always pays: charge the next period, then renew into it.
    const next = paid.scheduledPlanId ? await billing.planChoice(paid.scheduledPlanId, { archivedToo: true, inactiveToo: true }) : null;
    const plan = next ?? (await billing.planChoice(paid.planId, { archivedToo: true, inactiveToo: true }));
    const start = new Date(paid.periodEnd);
    const end = periodEnd(start, paid.cycle, plan.terms.durationDays);
    const transactionId = `sim_renewal_${userId}_${start.getTime()}`;
    const payment = await billing.payments.execute(paymentIdFor('simulated', transactionId), {
      type: 'RecordPayment',
      at,
      outcome: 'succeeded',
      userId,
      planId: plan.planId,
      amountCents: cyclePriceCents(plan.terms, paid.cycle),
      currency: 'USD',
      kind: 'renewal',
      provider: 'simulated',
      transactionId,
      refundTarget: transactionId,
    });
    const renewed = await billing.subscriptions.execute(userId, {
      type: 'RenewSubscription',
      at,
      periodStart: start,
      periodEnd: end,
      scheduledPlan: next,
    });
    await billing.caughtUp(Math.max(payment.position, renewed.position), userId);
    return renewed.position > 0;
  }

  private async expire(userId: string, reason: 'grace-ended' | 'period-ended', at: Date): Promise<boolean> {
    const freePlan = await this.billing.freePlan();
    const { position } = await this.billing.subscriptions.execute(userId, { type: 'ExpireSubscription', at, reason, freePlan });
    await this.billing.caughtUp(position, userId);
    return position > 0;
  }
}
