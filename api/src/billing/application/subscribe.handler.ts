import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { BillingCycle } from '@meshwork/contracts';
import { cyclePriceCents, FREE_PLAN_ID } from '../domain/plan';
import { type PlanChange, planChange } from '../domain/subscription.decider';
import type { SubscriptionEvent } from '../domain/subscription.events';
import { BillingContext, paymentIdFor } from './billing-context';

export type SubscribeOutcome = 'checkout' | 'upgraded' | 'downgrade_scheduled' | 'unchanged';

export class Subscribe {
  constructor(
    readonly userId: string,
    readonly email: string,
    readonly planId: string,
    readonly cycle: BillingCycle,
    readonly at: Date,
  ) {}
}

/**
 * Subscribing from free starts a checkout (Stripe's, or the simulated one); on a paid plan
 * it changes plan: upgrades now with a prorated charge, downgrades (and "free") at the
 * period end. The provider is told first: if it refuses, nothing is recorded.
 */
@CommandHandler(Subscribe)
export class SubscribeHandler implements ICommandHandler<Subscribe, { outcome: SubscribeOutcome; paymentUrl?: string }> {
  constructor(private readonly billing: BillingContext) {}

  async execute({ userId, email, planId, cycle, at }: Subscribe) {
    const { provider, config } = this.billing;
    const plan = await this.billing.planChoice(planId);
    const { state } = await this.billing.subscriptions.load(userId);
    if (state.status === 'free') {
      if (planId === FREE_PLAN_ID) return { outcome: 'unchanged' as const };
      const { sessionId, url } = await provider.startCheckout({
        userId,
        email,
        planId,
        planName: plan.terms.name,
        cycle,
        amountCents: cyclePriceCents(plan.terms, cycle),
        successUrl: `${config.publicUrl}/billing?checkout=success`,
        cancelUrl: `${config.publicUrl}/pricing?checkout=cancelled`,
      });
      await this.billing.subscriptions.execute(userId, { type: 'StartCheckout', at, sessionId, planId, cycle, provider: provider.mode });
      return { outcome: 'checkout' as const, paymentUrl: url };
    }

    // The rules first: the provider is told only of a change the decider will make.
    const change = planChange(state, plan, at);
    const subscriptionId = change.current.providerSubscriptionId;
    if (subscriptionId) {
      if (change.kind === 'upgrade' || change.kind === 'downgrade') {
        await provider.changePlan({
          providerSubscriptionId: subscriptionId,
          planId,
          planName: plan.terms.name,
          cycle: change.current.cycle,
          amountCents: cyclePriceCents(plan.terms, change.current.cycle),
          prorate: change.kind === 'upgrade',
        });
      }
      // A scheduled downgrade already set the lower price at Stripe (for the renewal): keeping
      // the current plan sets its price back, or the renewal would charge the lower one.
      if (change.kind === 'keep-current') {
        await provider.changePlan({
          providerSubscriptionId: subscriptionId,
          planId: change.current.planId,
          planName: plan.terms.name,
          cycle: change.current.cycle,
          amountCents: change.current.priceCents,
          prorate: false,
        });
      }
      if (change.kind === 'cancel') await provider.setCancelAtPeriodEnd(subscriptionId, true);
      if (change.kind === 'withdraw-cancellation') await provider.setCancelAtPeriodEnd(subscriptionId, false);
    }
    const { position, events } = await this.billing.subscriptions.execute(userId, { type: 'ChangePlan', at, plan });
    let last = position;
    // Stripe invoices the proration itself (its invoice.paid webhook records the payment);
    // the simulated provider's charge is recorded here, for the proration the upgrade holds.
    const upgrade = events.find(
      (e): e is Extract<SubscriptionEvent, { type: 'SubscriptionUpgraded' }> => e.type === 'SubscriptionUpgraded',
    );
    if (upgrade && provider.mode === 'simulated' && upgrade.data.prorationCents > 0) {
      const transactionId = `sim_up_${randomUUID().replaceAll('-', '')}`;
      last = (
        await this.billing.payments.execute(paymentIdFor('simulated', transactionId), {
          type: 'RecordPayment',
          at,
          outcome: 'succeeded',
          userId,
          planId,
          amountCents: upgrade.data.prorationCents,
          currency: 'USD',
          kind: 'upgrade',
          provider: 'simulated',
          transactionId,
          refundTarget: transactionId,
        })
      ).position;
    }
    await this.billing.caughtUp(Math.max(position, last), userId);
    return { outcome: OUTCOMES[change.kind] };
  }
}

/** What the site is told of each kind of plan change. */
const OUTCOMES: Record<PlanChange['kind'], SubscribeOutcome> = {
  upgrade: 'upgraded',
  downgrade: 'downgrade_scheduled',
  cancel: 'downgrade_scheduled',
  'keep-current': 'unchanged',
  'withdraw-cancellation': 'unchanged',
  unchanged: 'unchanged',
};
