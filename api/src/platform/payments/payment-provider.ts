import Stripe from 'stripe';
import type { AppConfig } from '../config/config';
import { type ComponentHealth, probe } from '../health/component-health';

/**
 * Stripe when a key is configured; otherwise the built-in simulated checkout (embedded
 * mode), which the billing context drives through the same commands.
 */
export interface PaymentProvider {
  readonly mode: 'stripe' | 'simulated';
  health(): Promise<ComponentHealth>;
}

export const PAYMENT_PROVIDER = Symbol('PaymentProvider');

export function paymentProviderFor(config: AppConfig): PaymentProvider {
  if (!config.STRIPE_SECRET_KEY) return new SimulatedPayments();
  const base = config.STRIPE_API_BASE ? new URL(config.STRIPE_API_BASE) : null;
  const stripe = new Stripe(config.STRIPE_SECRET_KEY, {
    maxNetworkRetries: 1,
    timeout: 5_000,
    ...(base ? { host: base.hostname, port: Number(base.port || 80), protocol: base.protocol.replace(':', '') as 'http' | 'https' } : {}),
  });
  return new StripePayments(stripe);
}

export class StripePayments implements PaymentProvider {
  readonly mode = 'stripe';
  constructor(readonly stripe: Stripe) {}

  async health(): Promise<ComponentHealth> {
    const result = await probe(async () => {
      await this.stripe.balance.retrieve();
    });
    return { status: result.up ? 'up' : 'down', required: true, mode: 'stripe', latencyMs: result.latencyMs, detail: result.detail };
  }
}

export class SimulatedPayments implements PaymentProvider {
  readonly mode = 'simulated';
  async health(): Promise<ComponentHealth> {
    return { status: 'up', required: false, mode: 'simulated', detail: 'built-in simulated checkout; no real money moves' };
  }
}
