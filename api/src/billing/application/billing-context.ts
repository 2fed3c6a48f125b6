import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { readYourWrites } from '../../platform/projections/projection-waiter';
import { SignedInUserCache } from '../../identity';
import { APP_CONFIG, type AppConfig } from '../../platform/config/config';
import { DATABASE, type Database } from '../../platform/database/database';
import { AggregateRepository } from '../../platform/domain/aggregate-repository';
import { ruleBroken } from '../../platform/domain/errors';
import { EVENT_STORE, type EventStore } from '../../platform/event-store/event-store.port';
import { PAYMENT_PROVIDER, type PaymentProvider } from '../../platform/payments/payment-provider';
import { type PaymentCommand, type PaymentEvent, paymentDecider, type PaymentState } from '../domain/payment.decider';
import { FREE_PLAN_ID } from '../domain/plan';
import { type PlanCommand, type PlanEvent, planDecider, type PlanState } from '../domain/plan.decider';
import { type PreferencesCommand, type PreferencesEvent, preferencesDecider, type PreferencesState } from '../domain/preferences.decider';
import type { PlanChoice, SubscriptionCommand } from '../domain/subscription.commands';
import { subscriptionDecider, type SubscriptionState } from '../domain/subscription.decider';
import type { SubscriptionEvent } from '../domain/subscription.events';
import { BILLING_PROJECTION } from '../projections/billing.projection';
import { MAX_PLAN_DAYS } from '@meshwork/contracts';

/** Everything the billing handlers share: the repositories and their collaborators. */
@Injectable()
export class BillingContext {
  readonly plans: AggregateRepository<PlanCommand, PlanEvent, PlanState>;
  readonly subscriptions: AggregateRepository<SubscriptionCommand, SubscriptionEvent, SubscriptionState>;
  readonly payments: AggregateRepository<PaymentCommand, PaymentEvent, PaymentState>;
  /** The dashboard's onboarding flags, per user. */
  readonly preferences: AggregateRepository<PreferencesCommand, PreferencesEvent, PreferencesState>;

  constructor(
    @Inject(APP_CONFIG) readonly config: AppConfig,
    @Inject(DATABASE) readonly database: Database,
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(PAYMENT_PROVIDER) readonly provider: PaymentProvider,
    readonly signedIn: SignedInUserCache,
  ) {
    this.plans = new AggregateRepository(store, planDecider, 'plan');
    this.subscriptions = new AggregateRepository(store, subscriptionDecider, 'subscription');
    this.payments = new AggregateRepository(store, paymentDecider, 'payment');
    this.preferences = new AggregateRepository(store, preferencesDecider, 'preferences');
  }

  /** The plan as its stream says now; archived plans count only when `archivedToo`. */
  async planChoice(planId: string, { archivedToo = false, inactiveToo = false } = {}): Promise<PlanChoice> {
    const { state } = await this.plans.load(planId);
    if (state.status === 'none') throw ruleBroken('This plan is not available.', 'plan_id');
    const usable =
      state.status === 'active' || (inactiveToo && state.status === 'inactive') || (archivedToo && state.status === 'archived');
    if (!usable) throw ruleBroken('This plan is not available.', 'plan_id');
    return { planId: state.planId, terms: state.terms };
  }

  freePlan(): Promise<PlanChoice> {
    return this.planChoice(FREE_PLAN_ID, { archivedToo: true, inactiveToo: true });
  }

  /**
   * Read-your-writes: waits for the billing read model (which the user object's plan and
   * limit are read from) to include `position`, and makes sure this process stops serving
   * the user's cached plan at once.
   */
  async caughtUp(position: number, userId?: string): Promise<void> {
    await readYourWrites(this.database.pool, [BILLING_PROJECTION], position);
    if (userId) this.signedIn.forget(userId);
  }
}

/**
 * A payment's id from the provider's reference, so that news of one payment (checkout,
 * invoice webhook, verify call) always lands on the same stream.
 */
export function paymentIdFor(provider: string, transactionId: string): string {
  const hex = createHash('sha256').update(`${provider}:${transactionId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The end of a period of `days` from `start`. */
/**
 * The end of a period that starts now. The api refuses durations over MAX_PLAN_DAYS; a plan
 * stored before that rule may hold more, and is read as the longest allowed rather than as
 * an invalid date that would fail a checkout already paid for.
 */
export const periodEnd = (start: Date, cycle: 'monthly' | 'yearly', durationDays: number) =>
  new Date(start.getTime() + (cycle === 'yearly' ? 365 : Math.min(durationDays, MAX_PLAN_DAYS)) * 86_400_000);
