import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import Stripe from 'stripe';
import type { AppConfig } from '../config/config';
import type { Migration } from '../database/migrations';
import { type ComponentHealth, probe } from '../health/component-health';

export interface CheckoutRequest {
  userId: string;
  email: string;
  planId: string;
  planName: string;
  cycle: 'monthly' | 'yearly';
  amountCents: number;
  successUrl: string;
  cancelUrl: string;
}

/** A provider-side checkout as the provider reports it. */
export interface CheckoutSnapshot {
  sessionId: string;
  userId: string | null;
  planId: string | null;
  cycle: 'monthly' | 'yearly' | null;
  amountCents: number;
  status: 'open' | 'complete' | 'expired';
  paid: boolean;
  providerSubscriptionId: string | null;
}

export interface PlanChangeRequest {
  providerSubscriptionId: string;
  planId: string;
  planName: string;
  cycle: 'monthly' | 'yearly';
  amountCents: number;
  /** Upgrades charge the difference now; downgrades bill the new price from the next period. */
  prorate: boolean;
}

/**
 * Takes payments: Stripe when a key is configured; otherwise the built-in simulated
 * checkout (embedded mode), which drives the same billing commands. The billing context
 * decides; this only talks to the provider.
 */
export interface PaymentProvider {
  readonly mode: 'stripe' | 'simulated';
  health(): Promise<ComponentHealth>;
  startCheckout(request: CheckoutRequest): Promise<{ sessionId: string; url: string }>;
  checkout(sessionId: string): Promise<CheckoutSnapshot | null>;
  changePlan(request: PlanChangeRequest): Promise<void>;
  setCancelAtPeriodEnd(providerSubscriptionId: string, cancel: boolean): Promise<void>;
  cancelNow(providerSubscriptionId: string): Promise<void>;
  refund(refundTarget: string, amountCents: number, reason: string): Promise<{ refundId: string }>;
}

export const PAYMENT_PROVIDER = Symbol('PaymentProvider');

export function paymentProviderFor(config: AppConfig, pool: Pool): PaymentProvider {
  if (!config.STRIPE_SECRET_KEY) return new SimulatedPayments(pool);
  const base = config.STRIPE_API_BASE ? new URL(config.STRIPE_API_BASE) : null;
  const stripe = new Stripe(config.STRIPE_SECRET_KEY, {
    maxNetworkRetries: 1,
    timeout: 10_000,
    ...(base ? { host: base.hostname, port: Number(base.port || 80), protocol: base.protocol.replace(':', '') as 'http' | 'https' } : {}),
  });
  return new StripePayments(stripe);
}

/** A Stripe Checkout Session as billing reads it (from the API or from a webhook). */
export function checkoutSnapshotOf(session: Stripe.Checkout.Session): CheckoutSnapshot {
  return {
    sessionId: session.id,
    userId: session.metadata?.userId ?? session.client_reference_id ?? null,
    planId: session.metadata?.planId ?? null,
    cycle: (session.metadata?.cycle as 'monthly' | 'yearly' | undefined) ?? null,
    amountCents: session.amount_total ?? 0,
    status: session.status ?? 'open',
    paid: session.status === 'complete' && session.payment_status === 'paid',
    providerSubscriptionId: typeof session.subscription === 'string' ? session.subscription : (session.subscription?.id ?? null),
  };
}

/** Metadata every Stripe object of ours carries, so webhooks name the user and plan. */
const metadataOf = (userId: string, planId: string, cycle: string) => ({ userId, planId, cycle });

export class StripePayments implements PaymentProvider {
  readonly mode = 'stripe';
  constructor(readonly stripe: Stripe) {}

  async health(): Promise<ComponentHealth> {
    const result = await probe(async () => {
      await this.stripe.balance.retrieve();
    });
    return { status: result.up ? 'up' : 'down', required: true, mode: 'stripe', latencyMs: result.latencyMs, detail: result.detail };
  }

  async startCheckout(request: CheckoutRequest): Promise<{ sessionId: string; url: string }> {
    const metadata = metadataOf(request.userId, request.planId, request.cycle);
    const session = await this.stripe.checkout.sessions.create({
      mode: 'subscription',
      customer_email: request.email,
      client_reference_id: request.userId,
      line_items: [{ quantity: 1, price_data: this.priceData(request.planId, request.planName, request.cycle, request.amountCents) }],
      metadata,
      subscription_data: { metadata },
      success_url: `${request.successUrl}${request.successUrl.includes('?') ? '&' : '?'}session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: request.cancelUrl,
    });
    if (!session.url) throw new Error('Stripe returned a checkout session without a url');
    return { sessionId: session.id, url: session.url };
  }

  async checkout(sessionId: string): Promise<CheckoutSnapshot | null> {
    return checkoutSnapshotOf(await this.stripe.checkout.sessions.retrieve(sessionId));
  }

  async changePlan(request: PlanChangeRequest): Promise<void> {
    const subscription = await this.stripe.subscriptions.retrieve(request.providerSubscriptionId);
    const item = subscription.items.data[0];
    await this.stripe.subscriptions.update(request.providerSubscriptionId, {
      items: [{ ...(item ? { id: item.id } : {}), price_data: this.subscriptionPriceData(request) }],
      proration_behavior: request.prorate ? 'always_invoice' : 'none',
      metadata: { planId: request.planId, cycle: request.cycle },
    });
  }

  async setCancelAtPeriodEnd(providerSubscriptionId: string, cancel: boolean): Promise<void> {
    await this.stripe.subscriptions.update(providerSubscriptionId, { cancel_at_period_end: cancel });
  }

  async cancelNow(providerSubscriptionId: string): Promise<void> {
    await this.stripe.subscriptions.cancel(providerSubscriptionId);
  }

  async refund(refundTarget: string, amountCents: number, reason: string): Promise<{ refundId: string }> {
    const target = refundTarget.startsWith('pi_') ? { payment_intent: refundTarget } : { charge: refundTarget };
    const refund = await this.stripe.refunds.create({
      ...target,
      amount: amountCents,
      reason: 'requested_by_customer',
      metadata: { reason },
    });
    return { refundId: refund.id };
  }

  private priceData(planId: string, planName: string, cycle: 'monthly' | 'yearly', amountCents: number) {
    return {
      currency: 'usd',
      unit_amount: amountCents,
      recurring: { interval: cycle === 'yearly' ? ('year' as const) : ('month' as const) },
      product_data: { name: `Meshwork ${planName}`, metadata: { planId } },
    };
  }

  private subscriptionPriceData(request: PlanChangeRequest) {
    // Subscription items take a product id rather than product data: one product per plan.
    return {
      currency: 'usd',
      unit_amount: request.amountCents,
      recurring: { interval: request.cycle === 'yearly' ? ('year' as const) : ('month' as const) },
      product: `meshwork_${request.planId}`,
    };
  }
}

export const simulatedCheckoutMigrations: Migration[] = [
  {
    id: '0201-simulated-checkouts',
    sql: `CREATE TABLE billing_simulated_checkouts (
            id text PRIMARY KEY,
            user_id text NOT NULL,
            plan_id text NOT NULL,
            cycle text NOT NULL,
            amount_cents integer NOT NULL,
            status text NOT NULL DEFAULT 'open',
            created_at timestamptz NOT NULL DEFAULT now()
          );`,
  },
];

/**
 * The built-in checkout of embedded mode: no money moves. Sessions live in PostgreSQL so
 * any api instance can complete them; the site's /checkout/simulated page says plainly that
 * it is a simulation.
 */
export class SimulatedPayments implements PaymentProvider {
  readonly mode = 'simulated';
  constructor(private readonly pool: Pool) {}

  async health(): Promise<ComponentHealth> {
    return { status: 'up', required: false, mode: 'simulated', detail: 'built-in simulated checkout; no real money moves' };
  }

  async startCheckout(request: CheckoutRequest): Promise<{ sessionId: string; url: string }> {
    const sessionId = `sim_cs_${randomUUID().replaceAll('-', '')}`;
    await this.pool.query(
      'INSERT INTO billing_simulated_checkouts (id, user_id, plan_id, cycle, amount_cents) VALUES ($1, $2, $3, $4, $5)',
      [sessionId, request.userId, request.planId, request.cycle, request.amountCents],
    );
    return { sessionId, url: `/checkout/simulated/${sessionId}` };
  }

  async checkout(sessionId: string): Promise<CheckoutSnapshot | null> {
    const { rows } = await this.pool.query<{
      user_id: string;
      plan_id: string;
      cycle: 'monthly' | 'yearly';
      amount_cents: number;
      status: CheckoutSnapshot['status'];
    }>('SELECT user_id, plan_id, cycle, amount_cents, status FROM billing_simulated_checkouts WHERE id = $1', [sessionId]);
    const row = rows[0];
    if (!row) return null;
    return {
      sessionId,
      userId: row.user_id,
      planId: row.plan_id,
      cycle: row.cycle,
      amountCents: row.amount_cents,
      status: row.status,
      paid: row.status === 'complete',
      providerSubscriptionId: null,
    };
  }

  /** Marks an open session paid or abandoned; false when it was not open. */
  async settle(sessionId: string, status: 'complete' | 'expired'): Promise<boolean> {
    const { rowCount } = await this.pool.query("UPDATE billing_simulated_checkouts SET status = $2 WHERE id = $1 AND status = 'open'", [
      sessionId,
      status,
    ]);
    return rowCount === 1;
  }

  async changePlan(): Promise<void> {
    // Nothing to tell: the billing context charges the prorated difference itself.
  }

  async setCancelAtPeriodEnd(): Promise<void> {}

  async cancelNow(): Promise<void> {}

  async refund(): Promise<{ refundId: string }> {
    return { refundId: `sim_re_${randomUUID().replaceAll('-', '')}` };
  }
}
