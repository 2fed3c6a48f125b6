import { Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { logger } from '../../platform/logging/logger';
import { cyclePriceCents } from '../domain/plan';
import { paidPeriod } from '../domain/subscription.decider';
import { BillingContext, paymentIdFor, periodEnd } from './billing-context';
import { BillingQueries } from './billing-queries';

/**
 * Settles periods that have ended: a cancelled subscription expires to free, a past-due one
 * whose grace ran out falls back to free, and a simulated subscription renews (with its
 * scheduled downgrade applied). Stripe renews its own subscriptions and says so by webhook.
 * Every command is idempotent, so several api instances may tick at once.
 */
@Injectable()
export class BillingClock implements OnApplicationBootstrap, OnModuleDestroy {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly billing: BillingContext,
    private readonly queries: BillingQueries,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.tick(new Date()), this.billing.config.BILLING_CLOCK_SECONDS * 1000);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** Settles everything due at `now`; returns how many subscriptions changed. */
  tick(now: Date): Promise<number> {
    this.running ??= this.settle(now)
      .catch((error: unknown) => {
        logger.error({ err: error }, 'billing clock failed; retrying at the next tick');
        return 0;
      })
      .finally(() => (this.running = null));
    return this.running;
  }

  private async settle(now: Date): Promise<number> {
    let changed = 0;
    for (const due of await this.queries.endedPeriods(now)) {
      try {
        changed += (await this.settleOne(due.user_id, now)) ? 1 : 0;
      } catch (error) {
        logger.error({ err: error, userId: due.user_id }, 'could not settle a billing period');
      }
    }
    return changed;
  }

  private async settleOne(userId: string, now: Date): Promise<boolean> {
    const { billing } = this;
    const { state } = await billing.subscriptions.load(userId);
    const paid = paidPeriod(state);
    if (!paid) return false;
    const expire = async (reason: 'grace-ended' | 'period-ended') => {
      const freePlan = await billing.freePlan();
      const { position } = await billing.subscriptions.execute(userId, { type: 'ExpireSubscription', at: now, reason, freePlan });
      await billing.caughtUp(position, userId);
      return position > 0;
    };
    if (state.status === 'past_due' && paid.graceUntil && paid.graceUntil <= now.toISOString()) {
      if (paid.providerSubscriptionId) await billing.provider.cancelNow(paid.providerSubscriptionId).catch(() => undefined);
      return expire('grace-ended');
    }
    if (paid.periodEnd > now.toISOString()) return false;
    if (paid.cancelAtPeriodEnd) return expire('period-ended');
    if (paid.provider !== 'simulated') return false;

    // The simulated provider always pays: charge the next period, then renew into it.
    const next = paid.scheduledPlanId ? await billing.planChoice(paid.scheduledPlanId, { archivedToo: true, inactiveToo: true }) : null;
    const plan = next ?? (await billing.planChoice(paid.planId, { archivedToo: true, inactiveToo: true }));
    const start = new Date(paid.periodEnd);
    const end = periodEnd(start, paid.cycle, plan.terms.durationDays);
    const transactionId = `sim_renewal_${userId}_${start.getTime()}`;
    const payment = await billing.payments.execute(paymentIdFor('simulated', transactionId), {
      type: 'RecordPayment',
      at: now,
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
      at: now,
      periodStart: start,
      periodEnd: end,
      scheduledPlan: next,
    });
    await billing.caughtUp(Math.max(payment.position, renewed.position), userId);
    return renewed.position > 0;
  }
}
