import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import Stripe from 'stripe';
import type { Migration } from '../../platform/database/migrations';
import { DomainError, conflict, notFound, ruleBroken } from '../../platform/domain/errors';
import { logger } from '../../platform/logging/logger';
import { checkoutSnapshotOf, StripePayments } from '../../platform/payments/payment-provider';
import { BillingContext, paymentIdFor } from '../application/billing-context';
import { BillingQueries } from '../application/billing-queries';
import { ActivateFromCheckout } from '../application/activate-from-checkout.handler';
import type { PaymentKind } from '../domain/payment.decider';
import { paidPeriod } from '../domain/subscription.decider';

export const webhookMigrations: Migration[] = [
  {
    id: '0202-stripe-webhook-events',
    sql: `CREATE TABLE billing_webhook_events (
            id text PRIMARY KEY,
            type text NOT NULL,
            received_at timestamptz NOT NULL DEFAULT now()
          );`,
  },
];

type Meta = { userId?: string; planId?: string; cycle?: string };

/** Loose views of the Stripe objects we read: fields moved between API versions. */
interface InvoiceView {
  id: string;
  amount_paid?: number;
  amount_due?: number;
  billing_reason?: string | null;
  subscription?: string | null;
  parent?: { subscription_details?: { subscription?: string; metadata?: Meta } | null } | null;
  subscription_details?: { metadata?: Meta } | null;
  lines?: { data?: { period?: { start: number; end: number }; metadata?: Meta }[] };
  payment_intent?: string | null;
  charge?: string | null;
  payments?: { data?: { payment?: { payment_intent?: string; charge?: string } }[] };
  metadata?: Meta;
}

/**
 * Stripe's webhooks, verified by signature, turned into billing commands. Delivery is at
 * least once and in any order: every command is idempotent and only moves state forward,
 * so the same event twice has one effect and late news never undoes newer news. An event
 * id is remembered once handled, to answer repeats without work.
 */
@Injectable()
export class StripeWebhooks {
  constructor(
    private readonly billing: BillingContext,
    private readonly queries: BillingQueries,
    private readonly commands: CommandBus,
  ) {}

  /** Verifies the signature (400 when it does not match) and applies the event. */
  async receive(rawBody: Buffer | undefined, signature: string | undefined): Promise<{ received: true; duplicate?: true }> {
    const provider = this.billing.provider;
    const secret = this.billing.config.STRIPE_WEBHOOK_SECRET;
    if (!(provider instanceof StripePayments) || !secret) throw notFound();
    if (!rawBody || !signature) throw ruleBroken('Missing Stripe signature.');
    let event: Stripe.Event;
    try {
      event = provider.stripe.webhooks.constructEvent(rawBody, signature, secret);
    } catch {
      throw ruleBroken('Invalid Stripe signature.');
    }
    const pool = this.billing.database.pool;
    const { rowCount } = await pool.query('SELECT 1 FROM billing_webhook_events WHERE id = $1', [event.id]);
    if (rowCount) return { received: true, duplicate: true };
    try {
      await this.apply(event);
    } catch (error) {
      // Stripe retries whatever is not acknowledged: retry only what may succeed later.
      if (!(error instanceof DomainError) || error.kind === 'conflict') throw error;
      logger.warn({ err: error, event: event.id, type: event.type }, 'Stripe event refused by the billing rules; acknowledged');
    }
    await pool.query('INSERT INTO billing_webhook_events (id, type) VALUES ($1, $2) ON CONFLICT DO NOTHING', [event.id, event.type]);
    return { received: true };
  }

  private async apply(event: Stripe.Event): Promise<void> {
    const at = new Date(event.created * 1000);
    const object = event.data.object as unknown as Record<string, unknown>;
    switch (event.type) {
      case 'checkout.session.completed':
        await this.commands.execute(new ActivateFromCheckout(checkoutSnapshotOf(object as unknown as Stripe.Checkout.Session), at));
        return;
      case 'invoice.paid':
      case 'invoice.payment_succeeded':
        return this.invoicePaid(object as unknown as InvoiceView, at);
      case 'invoice.payment_failed':
        return this.invoiceFailed(object as unknown as InvoiceView, at);
      case 'customer.subscription.updated': {
        const subscription = object as unknown as Stripe.Subscription;
        const userId = subscription.metadata?.userId;
        if (!userId) return;
        const { position } = await this.billing.subscriptions.execute(userId, {
          type: subscription.cancel_at_period_end ? 'CancelAtPeriodEnd' : 'WithdrawCancellation',
          at,
          providerNewsAt: at,
        });
        await this.billing.caughtUp(position, userId);
        return;
      }
      case 'customer.subscription.deleted': {
        const subscription = object as unknown as Stripe.Subscription;
        const userId = subscription.metadata?.userId;
        if (!userId) return;
        const { state } = await this.billing.subscriptions.load(userId);
        if (paidPeriod(state)?.providerSubscriptionId !== subscription.id) return; // news of an older subscription
        const { position } = await this.billing.subscriptions.execute(userId, {
          type: 'ExpireSubscription',
          at,
          reason: 'provider-ended',
          freePlan: await this.billing.freePlan(),
        });
        await this.billing.caughtUp(position, userId);
        return;
      }
      case 'charge.refunded': {
        const charge = object as unknown as Stripe.Charge;
        const target = (typeof charge.payment_intent === 'string' ? charge.payment_intent : null) ?? charge.id;
        const paymentId = (await this.queries.paymentByRefundTarget(target)) ?? (await this.queries.paymentByRefundTarget(charge.id));
        // Not known yet (the invoice news is still on its way): Stripe retries on an error.
        if (!paymentId) throw conflict('The refunded payment is not known yet; retry later.');
        let position = 0;
        for (const refund of charge.refunds?.data ?? []) {
          const result = await this.billing.payments.execute(paymentId, {
            type: 'RefundPayment',
            at,
            refundId: refund.id,
            amountCents: refund.amount,
            reason: refund.metadata?.reason ?? refund.reason ?? 'Refunded at Stripe',
          });
          position = Math.max(position, result.position);
        }
        await this.billing.caughtUp(position);
        return;
      }
      default:
        logger.debug({ type: event.type }, 'Stripe event not used');
    }
  }

  private async invoicePaid(invoice: InvoiceView, at: Date): Promise<void> {
    const facts = invoiceFacts(invoice);
    if (!facts) return;
    const { userId, planId, cycle, subscriptionId, period } = facts;
    const kind: PaymentKind =
      invoice.billing_reason === 'subscription_cycle'
        ? 'renewal'
        : invoice.billing_reason === 'subscription_update'
          ? 'upgrade'
          : 'subscription';
    const payment = await this.billing.payments.execute(paymentIdFor('stripe', invoice.id), {
      type: 'RecordPayment',
      at,
      outcome: 'succeeded',
      userId,
      planId,
      amountCents: invoice.amount_paid ?? 0,
      currency: 'USD',
      kind,
      provider: 'stripe',
      transactionId: invoice.id,
      refundTarget: refundTargetOf(invoice),
    });
    let position = payment.position;
    if (kind === 'subscription' && period) {
      // The first invoice may arrive before checkout.session.completed: activate from it.
      const plan = await this.billing.planChoice(planId, { archivedToo: true, inactiveToo: true });
      const activated = await this.billing.subscriptions.execute(userId, {
        type: 'ActivateSubscription',
        at,
        plan,
        cycle,
        periodStart: period.start,
        periodEnd: period.end,
        provider: 'stripe',
        providerSubscriptionId: subscriptionId,
        checkoutSessionId: null,
      });
      position = Math.max(position, activated.position);
    }
    if (kind === 'renewal' && period) {
      const { state } = await this.billing.subscriptions.load(userId);
      const scheduledPlanId = paidPeriod(state)?.scheduledPlanId;
      const scheduled = scheduledPlanId ? await this.billing.planChoice(scheduledPlanId, { archivedToo: true, inactiveToo: true }) : null;
      const renewed = await this.billing.subscriptions.execute(userId, {
        type: 'RenewSubscription',
        at,
        periodStart: period.start,
        periodEnd: period.end,
        scheduledPlan: scheduled,
      });
      position = Math.max(position, renewed.position);
    }
    await this.billing.caughtUp(position, userId);
  }

  private async invoiceFailed(invoice: InvoiceView, at: Date): Promise<void> {
    const facts = invoiceFacts(invoice);
    if (!facts) return;
    const { userId, planId } = facts;
    await this.billing.payments.execute(paymentIdFor('stripe', invoice.id), {
      type: 'RecordPayment',
      at,
      outcome: 'failed',
      failureReason: 'The card was declined at renewal.',
      userId,
      planId,
      amountCents: invoice.amount_due ?? 0,
      currency: 'USD',
      kind: invoice.billing_reason === 'subscription_cycle' ? 'renewal' : 'subscription',
      provider: 'stripe',
      transactionId: invoice.id,
      refundTarget: null,
    });
    const graceUntil = new Date(at.getTime() + this.billing.config.BILLING_GRACE_DAYS * 86_400_000);
    const { position } = await this.billing.subscriptions.execute(userId, { type: 'RecordPaymentFailure', at, graceUntil });
    await this.billing.caughtUp(position, userId);
  }
}

/** Who and what an invoice is for: our metadata rides on the Stripe subscription. */
function invoiceFacts(invoice: InvoiceView) {
  const metadata: Meta = {
    ...invoice.lines?.data?.[0]?.metadata,
    ...invoice.subscription_details?.metadata,
    ...invoice.parent?.subscription_details?.metadata,
    ...invoice.metadata,
  };
  if (!metadata.userId || !metadata.planId) {
    logger.warn({ invoice: invoice.id }, 'Stripe invoice without Meshwork metadata; ignored');
    return null;
  }
  const line = invoice.lines?.data?.[0]?.period;
  return {
    userId: metadata.userId,
    planId: metadata.planId,
    cycle: metadata.cycle === 'yearly' ? ('yearly' as const) : ('monthly' as const),
    subscriptionId: invoice.parent?.subscription_details?.subscription ?? invoice.subscription ?? null,
    period: line ? { start: new Date(line.start * 1000), end: new Date(line.end * 1000) } : null,
  };
}

function refundTargetOf(invoice: InvoiceView): string | null {
  const payment = invoice.payments?.data?.[0]?.payment;
  return payment?.payment_intent ?? payment?.charge ?? invoice.payment_intent ?? invoice.charge ?? null;
}
