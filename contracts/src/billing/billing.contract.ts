import { z } from 'zod';
import { integer, money, text } from '../common/fields';
import type { User } from '../identity/account.contract';

/**
 * Plans, subscriptions and payments (spec sections 3, 7 "Plan and downloads",
 * "Subscriptions", "Users", 9). Money travels as strings with two decimals ("29.00"; "0.00"
 * is free), as the spec's plan price does. Plan data is the single source of every page:
 * limits, prices, features and the comparison rows all come from here.
 */

/** Limits at or above this mean "unlimited" (the console shows 999 as unlimited). */
export const UNLIMITED = 999;

/** Annual price = 12 x monthly x 0.83 ("Save 17%"); savings shown = 12 x monthly x 0.17. */
export const ANNUAL_FACTOR = 0.83;

/** The admin new-plan form's fixed choices (spec section 9). */
export const PLAN_FEATURE_CHOICES = [
  'Basic Support',
  'Community Access',
  'Local Processing',
  'Basic Analytics',
  'Priority Support',
  'Advanced Analytics',
  'Custom Model Upload',
  'API Access',
  'Team Collaboration',
  'Advanced Security',
  '24/7 Premium Support',
  'Custom Integrations',
  'On-Premise Deployment',
  'Dedicated Account Manager',
  'Custom SLA',
  'White-label Options',
] as const;

export type BillingCycle = 'monthly' | 'yearly';

/** A plan, as the pricing page, billing page and console read it. `id` is the slug. */
export interface Plan {
  id: string;
  slug: string;
  name: string;
  description: string;
  /** Monthly price. */
  price: string;
  yearly_price: string;
  currency: 'USD';
  duration_days: number;
  max_networks: number;
  max_clients_per_network: number;
  /** The console's name for max_clients_per_network (spec "Admin subscription plan"). */
  max_clients: number;
  allowed_models: string[];
  features: string[];
  /** Comparison-table rows that are words rather than numbers. */
  model_access: string;
  api_access: string;
  download_access: boolean;
  /** Order of plans from cheapest: a change to a higher tier is an upgrade. */
  tier: number;
  popular: boolean;
  is_active: boolean;
}

/** A plan in the console: also how many subscribers it has now, and whether it is archived (deleted, restorable). */
export interface AdminPlan extends Plan {
  subscribers: number;
  archived: boolean;
}

/** A plan's limits: 999 and above mean "unlimited", so nothing larger is needed or stored. */
const limit = (field: string) => integer(field, { min: 1, max: UNLIMITED });

/** Ten years: longer periods only overflow dates. */
export const MAX_PLAN_DAYS = 3650;

export const planSlug = text('Slug', { max: 40 }).regex(
  /^[a-z0-9][a-z0-9-]*$/,
  'Slug may contain only lowercase letters, digits and dashes',
);

/** A plan's fields as staff edit them, without defaults (an update changes only what it names). */
const planFields = z.object({
  name: text('Name', { max: 80 }),
  slug: planSlug,
  description: text('Description', { max: 2000, multiline: true, required: false }),
  price: money('Price'),
  yearly_price: money('Yearly price'),
  duration_days: integer('Duration', { min: 1, max: MAX_PLAN_DAYS }),
  max_clients: limit('Max clients'),
  max_networks: limit('Max networks'),
  allowed_models: z.array(text('Model', { max: 100 })).max(200),
  features: z.array(text('Feature', { max: 200 })).max(100),
  model_access: text('Model access', { max: 40, required: false }),
  api_access: text('API access', { max: 40, required: false }),
  download_access: z.boolean({ error: 'Download access must be true or false' }),
  is_active: z.boolean({ error: 'Active must be true or false' }),
  tier: integer('Tier', { min: 0, max: 1000 }),
});

/** The console's new-plan form (spec section 5): name required, price >= 0 step 0.01, days >= 1, clients >= 1. */
export const PlanInput = planFields.extend({
  slug: planSlug.optional(),
  description: planFields.shape.description.default(''),
  price: planFields.shape.price.default(0),
  yearly_price: planFields.shape.yearly_price.optional(),
  duration_days: planFields.shape.duration_days.default(30),
  max_clients: planFields.shape.max_clients.default(1),
  max_networks: planFields.shape.max_networks.default(1),
  allowed_models: planFields.shape.allowed_models.default([]),
  features: planFields.shape.features.default([]),
  model_access: planFields.shape.model_access.optional(),
  api_access: planFields.shape.api_access.optional(),
  download_access: planFields.shape.download_access.default(true),
  is_active: planFields.shape.is_active.default(true),
  tier: planFields.shape.tier.optional(),
});
export type PlanInput = z.input<typeof PlanInput>;

/** Updates change any field but the slug; fields left out stay as they are. */
export const PlanUpdate = planFields.omit({ slug: true }).partial();
export type PlanUpdate = z.input<typeof PlanUpdate>;

/** 'active' includes a paid plan cancelling at its period end (see cancel_at_period_end). */
export type SubscriptionStatus = 'free' | 'active' | 'past_due';

/** The signed-in user's subscription (spec "Subscription", plus its state). */
export interface Subscription {
  plan_id: string;
  plan_name: string;
  status: SubscriptionStatus;
  billing_cycle: BillingCycle | null;
  price: string;
  currency: 'USD';
  started_at: string | null;
  /** End of the paid period; null on the free plan. */
  expires_at: string | null;
  next_billing_date: string | null;
  cancel_at_period_end: boolean;
  /** A downgrade waiting for the period end. */
  scheduled_plan_id: string | null;
  scheduled_plan_name: string | null;
  /** While past due: when access falls back to the free plan. */
  grace_until: string | null;
  payment_method: 'stripe' | 'simulated' | null;
}

export type PaymentStatus = 'pending' | 'completed' | 'failed' | 'refunded';

/** A payment in the user's history (spec "Payment (user view)"). */
export interface Payment {
  id: string;
  amount: string;
  currency: 'USD';
  status: PaymentStatus;
  created_at: string;
  plan_id: string;
  plan_name: string;
  description: string;
  /** Refunded so far; a partial refund leaves the payment completed. */
  refunded_amount: string;
}

/** GET /subscriptions/list/ */
export interface SubscriptionHistory {
  subscription: Subscription;
  payments: Payment[];
}

/** POST /subscriptions/create/: plan_id is the plan's slug. */
export const SubscribeRequest = z.object({
  plan_id: text('Plan', { max: 40 }),
  payment_method: z.enum(['stripe'], { error: "Payment method must be 'stripe'" }).default('stripe'),
  billing_cycle: z.enum(['monthly', 'yearly'], { error: "Billing cycle must be 'monthly' or 'yearly'" }).default('monthly'),
});
export type SubscribeRequest = z.input<typeof SubscribeRequest>;

/**
 * What subscribing did: `checkout` sends the browser to payment_url; `upgraded` took effect
 * now with a prorated charge; `downgrade_scheduled` takes effect at the period end.
 */
export interface SubscribeResponse {
  outcome: 'checkout' | 'upgraded' | 'downgrade_scheduled' | 'unchanged';
  payment_url?: string;
  message: string;
  subscription: Subscription;
}

/** POST /subscriptions/verify/ after returning from checkout. */
export const VerifyCheckoutRequest = z.object({
  session_id: text('session_id', { max: 255 }),
});

/** GET /subscriptions/methods/ */
export interface PaymentMethodInfo {
  id: 'stripe';
  name: string;
  /** True when no payment provider is configured: checkout is the built-in simulation. */
  simulated: boolean;
}

/** The built-in simulated checkout page's data (embedded mode, no Stripe key). */
export interface SimulatedCheckoutSession {
  id: string;
  plan_id: string;
  plan_name: string;
  billing_cycle: BillingCycle;
  amount: string;
  currency: 'USD';
  status: 'open' | 'complete' | 'expired';
}

/** Spec "Upgrade option". */
export interface UpgradeOption {
  name: string;
  slug: string;
  max_networks: number;
  max_clients_per_network: number;
  upgrade_price: string;
  benefits: string[];
}

export interface AvailableModel {
  name: string;
  display_name: string;
  description: string;
  version: string;
  file_size: number;
  block_count: number;
}

/** GET /plan/ and /account/plan/ (spec "Plan info"). */
export interface PlanInfo {
  plan: string;
  plan_name: string;
  plan_slug: string;
  expires_at: string | null;
  permissions: { max_networks: number; max_clients_per_network: number };
  available_models: AvailableModel[];
  download_info: { download_access: boolean };
  plan_transitions: { available_upgrades: UpgradeOption[] };
}

export interface Preferences {
  onboarding_completed: boolean;
  /** Forces the onboarding to show again (the Take Tour button). */
  show_onboarding: boolean;
}

export const PreferencesUpdate = z
  .object({ onboarding_completed: z.boolean(), show_onboarding: z.boolean() })
  .partial()
  .refine((p) => Object.keys(p).length > 0, 'Nothing to update');
export type PreferencesUpdate = z.input<typeof PreferencesUpdate>;

/** GET /users/dashboard/ */
export interface UserDashboard {
  user: User;
  plan_info: PlanInfo;
  subscription: Subscription;
  recent_payments: Payment[];
  preferences: Preferences;
}

/** GET /users/usage-stats/ */
export interface UsageStats {
  networks: { used: number; limit: number };
  clients_per_network: { limit: number };
  models: { available: number };
  downloads: { total: number; last_30_days: number };
  payments: { total_paid: string; count: number };
}

export type AdminPaymentStatus = PaymentStatus;

/** A payment in the console (spec "Admin payment"). */
export interface AdminPayment {
  id: string;
  userId: string;
  userEmail: string;
  userName: string;
  planId: string;
  planName: string;
  amount: number;
  currency: 'USD';
  status: AdminPaymentStatus;
  paymentMethod: 'stripe' | 'simulated';
  transactionId: string;
  createdDate: string;
  processedDate: string | null;
  refundAmount: number;
  refundReason: string | null;
}

/** POST /admin-panel/payments/{id}/refund/: amount at most what is left, step 0.01; reason required. */
export const RefundRequest = z.object({
  amount: money('Amount').refine((v) => v > 0, 'Amount must be more than 0'),
  reason: text('Reason', { max: 500, multiline: true }),
});
export type RefundRequest = z.input<typeof RefundRequest>;

/** GET /admin-panel/dashboard/ (spec "Dashboard stats"). */
export interface AdminDashboardStats {
  totalUsers: number;
  totalRevenue: number;
  activeSubscriptions: number;
  /** New users this calendar month against last month, in percent. */
  monthlyGrowth: number;
  recentUsers: { id: string; username: string; email: string; plan: string; created_at: string }[];
  recentPayments: { id: string; user: string; amount: number; plan: string; date: string; status: AdminPaymentStatus }[];
}

/** Cents to the API's money text, and back. */
export const moneyText = (cents: number) => (cents / 100).toFixed(2);
export const centsOf = (amount: number | string) => Math.round(Number(amount) * 100);
