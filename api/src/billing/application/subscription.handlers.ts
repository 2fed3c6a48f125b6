import { randomUUID } from 'node:crypto';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { BillingCycle } from '../../../../contracts/src/billing/billing.contract';
import { notFound, ruleBroken } from '../../platform/domain/errors';
import { type CheckoutSnapshot, SimulatedPayments } from '../../platform/payments/payment-provider';
import { refundable } from '../domain/payment.decider';
import { cyclePriceCents, FREE_PLAN_ID } from '../domain/plan';
import { cancellable, paidPeriod, type PlanChange, planChange } from '../domain/subscription.decider';
import type { SubscriptionEvent } from '../domain/subscription.events';
import { BillingContext, paymentIdFor, periodEnd } from './billing-context';
import { EndBillingForDeletedAccount } from './end-billing.command';

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
      if (change.kind === 'cancel') await provider.setCancelAtPeriodEnd(subscriptionId, true);
      if (change.kind === 'withdraw-cancellation') await provider.setCancelAtPeriodEnd(subscriptionId, false);
    }
    const { position, events } = await this.billing.subscriptions.execute(userId, { type: 'ChangePlan', at, plan });
    let last = position;
    // Stripe invoices the proration itself (its invoice.paid webhook records the payment);
    // the simulated provider's charge is recorded here, as the upgrade recorded it.
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

export class ActivateFromCheckout {
  constructor(
    readonly checkout: CheckoutSnapshot,
    readonly at: Date,
  ) {}
}

/**
 * A paid checkout becomes an active subscription (from the webhook, the verify call or the
 * simulated page, whichever comes first; the rest change nothing). The simulated provider's
 * payment is recorded here; Stripe's arrives as its invoice webhook.
 */
@CommandHandler(ActivateFromCheckout)
export class ActivateFromCheckoutHandler implements ICommandHandler<ActivateFromCheckout, number> {
  constructor(private readonly billing: BillingContext) {}

  async execute({ checkout, at }: ActivateFromCheckout): Promise<number> {
    const { userId, planId, cycle } = checkout;
    if (!checkout.paid || !userId || !planId || !cycle) return 0;
    // A plan archived after checkout began is still honoured: the customer paid for it.
    const plan = await this.billing.planChoice(planId, { archivedToo: true, inactiveToo: true });
    const mode = this.billing.provider.mode;
    let { position } = await this.billing.subscriptions.execute(userId, {
      type: 'ActivateSubscription',
      at,
      plan,
      cycle,
      periodStart: at,
      periodEnd: periodEnd(at, cycle, plan.terms.durationDays),
      provider: mode,
      providerSubscriptionId: checkout.providerSubscriptionId,
      checkoutSessionId: checkout.sessionId,
    });
    if (mode === 'simulated') {
      const payment = await this.billing.payments.execute(paymentIdFor('simulated', checkout.sessionId), {
        type: 'RecordPayment',
        at,
        outcome: 'succeeded',
        userId,
        planId,
        amountCents: checkout.amountCents,
        currency: 'USD',
        kind: 'subscription',
        provider: 'simulated',
        transactionId: checkout.sessionId,
        refundTarget: checkout.sessionId,
      });
      position = Math.max(position, payment.position);
    }
    await this.billing.caughtUp(position, userId);
    return position;
  }
}

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

export class RefundPayment {
  constructor(
    readonly paymentId: string,
    readonly amountCents: number,
    readonly reason: string,
    readonly at: Date,
  ) {}
}

/** Staff refund all or part of a completed payment through the provider, then record it. */
@CommandHandler(RefundPayment)
export class RefundPaymentHandler implements ICommandHandler<RefundPayment, number> {
  constructor(private readonly billing: BillingContext) {}

  async execute({ paymentId, amountCents, reason, at }: RefundPayment): Promise<number> {
    const { state } = await this.billing.payments.load(paymentId);
    // The rules before money moves: the provider is asked only for a refund the decider allows.
    const { refundTarget } = refundable(state, amountCents);
    if (!refundTarget) throw ruleBroken('This payment cannot be refunded through its provider.');
    const { refundId } = await this.billing.provider.refund(refundTarget, amountCents, reason);
    const { position } = await this.billing.payments.execute(paymentId, { type: 'RefundPayment', at, refundId, amountCents, reason });
    await this.billing.caughtUp(position);
    return position;
  }
}

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
