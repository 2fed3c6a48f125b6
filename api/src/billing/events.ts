// The billing context's events as other contexts read them: their types and stored names,
// nothing that runs. Any context may import this file.
import { eventTypesOf } from '../platform/domain/event-types';
import type { PaymentEvent } from './domain/payment.decider';
import type { PlanEvent } from './domain/plan.decider';
import type { PreferencesEvent } from './domain/preferences.decider';
import type { SubscriptionEvent } from './domain/subscription.events';

export type { PaymentEvent, PlanEvent, PreferencesEvent, SubscriptionEvent };

/** Every plan event type as stored (stream `plan-<id>`). */
export const PLAN_EVENT_TYPES = eventTypesOf<PlanEvent>()([
  'PlanCreated',
  'PlanUpdated',
  'PlanActivated',
  'PlanDeactivated',
  'PlanArchived',
  'PlanRestored',
]);

/** Every subscription event type as stored (stream `subscription-<user id>`). */
export const SUBSCRIPTION_EVENT_TYPES = eventTypesOf<SubscriptionEvent>()([
  'CheckoutStarted',
  'SubscriptionActivated',
  'SubscriptionUpgraded',
  'DowngradeScheduled',
  'CancellationScheduled',
  'CancellationWithdrawn',
  'DowngradeApplied',
  'SubscriptionRenewed',
  'SubscriptionPastDue',
  'SubscriptionExpired',
  'EntitlementsChanged',
]);

/** Every payment event type as stored (stream `payment-<id>`). */
export const PAYMENT_EVENT_TYPES = eventTypesOf<PaymentEvent>()([
  'PaymentInitiated',
  'PaymentSucceeded',
  'PaymentFailed',
  'PaymentRefunded',
]);

/** Every preferences event type as stored (stream `preferences-<user id>`). */
export const PREFERENCES_EVENT_TYPES = eventTypesOf<PreferencesEvent>()(['PreferencesUpdated']);
