import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import Stripe from 'stripe';
import type { Migration } from '../../platform/database/migrations';
import { DomainError, notFound, ruleBroken } from '../../platform/domain/errors';
import { logger } from '../../platform/logging/logger';
import { checkoutSnapshotOf, StripePayments } from '../../platform/payments/payment-provider';
import { ActivateFromCheckout } from '../application/activate-from-checkout.handler';
import { BillingContext } from '../application/billing-context';
import { EndProviderSubscription } from '../application/end-provider-subscription.handler';
import type { ProviderInvoice } from '../application/provider-invoice';
import { RecordFailedInvoice } from '../application/record-failed-invoice.handler';
import { RecordPaidInvoice } from '../application/record-paid-invoice.handler';
import { RecordProviderCancellation } from '../application/record-provider-cancellation.handler';
import { RecordProviderRefunds } from '../application/record-provider-refunds.handler';

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
  number?: string | null;
  hosted_invoice_url?: string | null;
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

  /** Each event the billing context uses becomes one command; the rest are ignored. */
  private async apply(event: Stripe.Event): Promise<void> {
    const at = new Date(event.created * 1000);
    const command = commandFor(event, at);
    if (command) await this.commands.execute(command);
    else logger.debug({ type: event.type }, 'Stripe event not used');
  }
}

/** The billing command a Stripe event stands for, or null when billing has no use for it. */
function commandFor(event: Stripe.Event, at: Date): object | null {
  const object = event.data.object as unknown as Record<string, unknown>;
  switch (event.type) {
    case 'checkout.session.completed':
      return new ActivateFromCheckout(checkoutSnapshotOf(object as unknown as Stripe.Checkout.Session), at);
    case 'invoice.paid':
    case 'invoice.payment_succeeded': {
      const invoice = providerInvoice(object as unknown as InvoiceView);
      return invoice && new RecordPaidInvoice(invoice, at);
    }
    case 'invoice.payment_failed': {
      const view = object as unknown as InvoiceView;
      const invoice = providerInvoice(view);
      const kind = view.billing_reason === 'subscription_cycle' ? 'renewal' : 'subscription';
      return invoice && new RecordFailedInvoice({ ...invoice, kind, amountCents: view.amount_due ?? 0 }, at);
    }
    case 'customer.subscription.updated': {
      const subscription = object as unknown as Stripe.Subscription;
      const userId = subscription.metadata?.userId;
      return userId ? new RecordProviderCancellation(userId, subscription.cancel_at_period_end, at) : null;
    }
    case 'customer.subscription.deleted': {
      const subscription = object as unknown as Stripe.Subscription;
      const userId = subscription.metadata?.userId;
      return userId ? new EndProviderSubscription(userId, subscription.id, at) : null;
    }
    case 'charge.refunded': {
      const charge = object as unknown as Stripe.Charge;
      const target = (typeof charge.payment_intent === 'string' ? charge.payment_intent : null) ?? charge.id;
      const refunds = (charge.refunds?.data ?? []).map((refund) => ({
        refundId: refund.id,
        amountCents: refund.amount,
        reason: refund.metadata?.reason ?? refund.reason ?? 'Refunded at Stripe',
      }));
      return new RecordProviderRefunds([target, charge.id], refunds, at);
    }
    default:
      return null;
  }
}

/** Who and what an invoice is for (our metadata rides on the Stripe subscription); null without it. */
function providerInvoice(invoice: InvoiceView): ProviderInvoice | null {
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
    invoiceId: invoice.id,
    userId: metadata.userId,
    planId: metadata.planId,
    cycle: metadata.cycle === 'yearly' ? 'yearly' : 'monthly',
    kind:
      invoice.billing_reason === 'subscription_cycle'
        ? 'renewal'
        : invoice.billing_reason === 'subscription_update'
          ? 'upgrade'
          : 'subscription',
    amountCents: invoice.amount_paid ?? 0,
    providerSubscriptionId: invoice.parent?.subscription_details?.subscription ?? invoice.subscription ?? null,
    period: line ? { start: new Date(line.start * 1000), end: new Date(line.end * 1000) } : null,
    refundTarget: refundTargetOf(invoice),
    number: typeof invoice.number === 'string' ? invoice.number : null,
    hostedUrl: typeof invoice.hosted_invoice_url === 'string' ? invoice.hosted_invoice_url : null,
  };
}

function refundTargetOf(invoice: InvoiceView): string | null {
  const payment = invoice.payments?.data?.[0]?.payment;
  return payment?.payment_intent ?? payment?.charge ?? invoice.payment_intent ?? invoice.charge ?? null;
}
