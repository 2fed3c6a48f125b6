import { z } from 'zod';
import { integer, money, text } from '../common/fields';
import { timestamp } from '../http/http.contract';
import { User } from '../identity/account.contract';
import { DeviceUsage } from '../networks/device-usage.contract';
import { UNLIMITED } from './plan-numbers';

export { ANNUAL_FACTOR, centsOf, moneyText, UNLIMITED } from './plan-numbers';

/**
 * Plans, subscriptions and payments (spec sections 3, 7 "Plan and downloads",
 * "Subscriptions", "Users", 9). Money travels as strings with two decimals ("29.00"; "0.00"
 * is free), as the spec's plan price does. Plan data is the single source of every page:
 * limits, prices, features and the comparison rows all come from here.
 */

/** Money in an answer: text with two decimals, as the spec's plan price ("29.00"). */
const moneyAnswer = z.string().regex(/^\d+\.\d{2}$/);

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

export const BillingCycle = z.enum(['monthly', 'yearly']);

/** What API tokens a plan allows: none, read-only (GET/HEAD) or read-write. */
export const ApiTokenScopeLimit = z.enum(['none', 'read', 'read_write'], {
  error: "API token scope must be 'none', 'read' or 'read_write'",
});
export type ApiTokenScopeLimit = z.output<typeof ApiTokenScopeLimit>;
export type BillingCycle = z.output<typeof BillingCycle>;

/** A plan, as the pricing page, billing page and console read it. `id` is the slug. */
export const Plan = z
  .object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    description: z.string(),
    price: moneyAnswer.meta({ description: 'Monthly price.' }),
    yearly_price: moneyAnswer,
    currency: z.literal('USD'),
    duration_days: z.number().int(),
    max_networks: z.number().int(),
    max_clients_per_network: z.number().int(),
    max_clients: z.number().int().meta({ description: "The console's name for max_clients_per_network." }),
    allowed_models: z.array(z.string()),
    features: z.array(z.string()),
    /** Comparison-table rows that are words rather than numbers. */
    model_access: z.string(),
    api_access: z.string(),
    download_access: z.boolean(),
    api_token_scope: ApiTokenScopeLimit.meta({ description: "The widest scope the plan's API tokens get ('none': no tokens)." }),
    api_requests_per_minute: z.number().int().meta({ description: 'Requests per minute each API token may make.' }),
    webhooks: z.boolean().meta({ description: 'Whether the plan may send webhooks.' }),
    usage_history_days: z.number().int().meta({ description: 'How many days of device usage the dashboard shows.' }),
    tier: z.number().int().meta({ description: 'Order of plans from cheapest: a change to a higher tier is an upgrade.' }),
    popular: z.boolean(),
    is_active: z.boolean(),
  })
  .meta({ id: 'Plan' });
export type Plan = z.output<typeof Plan>;

/** A plan in the console: also how many subscribers it has now, and whether it is archived (deleted, restorable). */
export const AdminPlan = Plan.extend({ subscribers: z.number().int(), archived: z.boolean() }).meta({ id: 'AdminPlan' });
export type AdminPlan = z.output<typeof AdminPlan>;

/** A plan's limits: 999 and above mean "unlimited", so nothing larger is needed or stored. */
const limit = (field: string) => integer(field, { min: 1, max: UNLIMITED });

/** Ten years: longer periods only overflow dates. */
export const MAX_PLAN_DAYS = 3650;

/** A ceiling on a plan's API rate: a million a minute is beyond any one token's honest use. */
export const MAX_API_REQUESTS_PER_MINUTE = 1_000_000;

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
  api_token_scope: ApiTokenScopeLimit,
  api_requests_per_minute: integer('API requests per minute', { min: 0, max: MAX_API_REQUESTS_PER_MINUTE }),
  webhooks: z.boolean({ error: 'Webhooks must be true or false' }),
  usage_history_days: integer('Usage history', { min: 1, max: MAX_PLAN_DAYS }),
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
  // A new plan's API terms start as the free plan's (seed-plans.ts); staff raise them.
  api_token_scope: planFields.shape.api_token_scope.default('read'),
  api_requests_per_minute: planFields.shape.api_requests_per_minute.default(60),
  webhooks: planFields.shape.webhooks.default(false),
  usage_history_days: planFields.shape.usage_history_days.default(7),
  is_active: planFields.shape.is_active.default(true),
  tier: planFields.shape.tier.optional(),
});
export type PlanInput = z.input<typeof PlanInput>;

/** Updates change any field but the slug; fields left out stay as they are. */
export const PlanUpdate = planFields.omit({ slug: true }).partial();
export type PlanUpdate = z.input<typeof PlanUpdate>;

/** 'active' includes a paid plan cancelling at its period end (see cancel_at_period_end). */
export const SubscriptionStatus = z.enum(['free', 'active', 'past_due']);
export type SubscriptionStatus = z.output<typeof SubscriptionStatus>;

/** The signed-in user's subscription (spec "Subscription", plus its state). */
export const Subscription = z
  .object({
    plan_id: z.string(),
    plan_name: z.string(),
    status: SubscriptionStatus,
    billing_cycle: BillingCycle.nullable(),
    price: moneyAnswer,
    currency: z.literal('USD'),
    started_at: timestamp.nullable(),
    expires_at: timestamp.nullable().meta({ description: 'End of the paid period; null on the free plan.' }),
    next_billing_date: timestamp.nullable(),
    cancel_at_period_end: z.boolean(),
    scheduled_plan_id: z.string().nullable().meta({ description: 'A downgrade waiting for the period end.' }),
    scheduled_plan_name: z.string().nullable(),
    grace_until: timestamp.nullable().meta({ description: 'While past due: when access falls back to the free plan.' }),
    payment_method: z.enum(['stripe', 'simulated']).nullable(),
  })
  .meta({ id: 'Subscription' });
export type Subscription = z.output<typeof Subscription>;

export const PaymentStatus = z.enum(['pending', 'completed', 'failed', 'refunded']);
export type PaymentStatus = z.output<typeof PaymentStatus>;

/** A payment in the user's history (spec "Payment (user view)"). */
export const Payment = z
  .object({
    id: z.string(),
    amount: moneyAnswer,
    currency: z.literal('USD'),
    status: PaymentStatus,
    created_at: timestamp,
    plan_id: z.string(),
    plan_name: z.string(),
    description: z.string(),
    refunded_amount: moneyAnswer.meta({ description: 'Refunded so far; a partial refund leaves the payment completed.' }),
  })
  .meta({ id: 'Payment' });
export type Payment = z.output<typeof Payment>;

/** GET /subscriptions/list/ */
export const SubscriptionHistory = z.object({ subscription: Subscription, payments: z.array(Payment) }).meta({ id: 'SubscriptionHistory' });
export type SubscriptionHistory = z.output<typeof SubscriptionHistory>;

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
export const SubscribeResponse = z
  .object({
    outcome: z.enum(['checkout', 'upgraded', 'downgrade_scheduled', 'unchanged']),
    payment_url: z.string().optional(),
    message: z.string(),
    subscription: Subscription,
  })
  .meta({ id: 'SubscribeResponse' });
export type SubscribeResponse = z.output<typeof SubscribeResponse>;

/** POST /subscriptions/verify/ after returning from checkout. */
export const VerifyCheckoutRequest = z.object({
  session_id: text('session_id', { max: 255 }),
});

/** GET /subscriptions/methods/ */
export const PaymentMethodInfo = z
  .object({
    id: z.literal('stripe'),
    name: z.string(),
    simulated: z.boolean().meta({ description: 'True when no payment provider is configured: checkout is the built-in simulation.' }),
  })
  .meta({ id: 'PaymentMethodInfo' });
export type PaymentMethodInfo = z.output<typeof PaymentMethodInfo>;

/** The built-in simulated checkout page's data (embedded mode, no Stripe key). */
export const SimulatedCheckoutSession = z
  .object({
    id: z.string(),
    plan_id: z.string(),
    plan_name: z.string(),
    billing_cycle: BillingCycle,
    amount: moneyAnswer,
    currency: z.literal('USD'),
    status: z.enum(['open', 'complete', 'expired']),
  })
  .meta({ id: 'SimulatedCheckoutSession' });
export type SimulatedCheckoutSession = z.output<typeof SimulatedCheckoutSession>;

/** Spec "Upgrade option". */
export const UpgradeOption = z
  .object({
    name: z.string(),
    slug: z.string(),
    max_networks: z.number().int(),
    max_clients_per_network: z.number().int(),
    upgrade_price: moneyAnswer,
    benefits: z.array(z.string()),
  })
  .meta({ id: 'UpgradeOption' });
export type UpgradeOption = z.output<typeof UpgradeOption>;

export const AvailableModel = z
  .object({
    name: z.string(),
    display_name: z.string(),
    description: z.string(),
    version: z.string(),
    file_size: z.number().int(),
    block_count: z.number().int(),
  })
  .meta({ id: 'AvailableModel' });
export type AvailableModel = z.output<typeof AvailableModel>;

/** GET /plan/ and /account/plan/ (spec "Plan info"). */
export const PlanInfo = z
  .object({
    plan: z.string(),
    plan_name: z.string(),
    plan_slug: z.string(),
    expires_at: timestamp.nullable(),
    permissions: z.object({
      max_networks: z.number().int(),
      max_clients_per_network: z.number().int(),
      api_token_scope: ApiTokenScopeLimit,
      api_requests_per_minute: z.number().int(),
      webhooks: z.boolean(),
      usage_history_days: z.number().int(),
    }),
    available_models: z.array(AvailableModel),
    download_info: z.object({ download_access: z.boolean() }),
    plan_transitions: z.object({ available_upgrades: z.array(UpgradeOption) }),
  })
  .meta({ id: 'PlanInfo' });
export type PlanInfo = z.output<typeof PlanInfo>;

export const Preferences = z
  .object({
    onboarding_completed: z.boolean(),
    show_onboarding: z.boolean().meta({ description: 'Forces the onboarding to show again (the Take Tour button).' }),
  })
  .meta({ id: 'Preferences' });
export type Preferences = z.output<typeof Preferences>;

export const PreferencesUpdate = z
  .object({ onboarding_completed: z.boolean(), show_onboarding: z.boolean() })
  .partial()
  .refine((p) => Object.keys(p).length > 0, 'Nothing to update');
export type PreferencesUpdate = z.input<typeof PreferencesUpdate>;

/** GET /users/dashboard/ */
export const UserDashboard = z
  .object({
    user: User,
    plan_info: PlanInfo,
    subscription: Subscription,
    recent_payments: z.array(Payment),
    preferences: Preferences,
  })
  .meta({ id: 'UserDashboard' });
export type UserDashboard = z.output<typeof UserDashboard>;

/** GET /users/usage-stats/ */
export const UsageStats = z
  .object({
    networks: z.object({ used: z.number().int(), limit: z.number().int() }),
    clients_per_network: z.object({ limit: z.number().int() }),
    models: z.object({ available: z.number().int() }),
    downloads: z.object({ total: z.number().int(), last_30_days: z.number().int() }),
    payments: z.object({ total_paid: moneyAnswer, count: z.number().int() }),
    usage: DeviceUsage,
  })
  .meta({ id: 'UsageStats' });
export type UsageStats = z.output<typeof UsageStats>;

export const AdminPaymentStatus = PaymentStatus;
export type AdminPaymentStatus = PaymentStatus;

/** A payment in the console (spec "Admin payment"). */
export const AdminPayment = z
  .object({
    id: z.string(),
    userId: z.string(),
    userEmail: z.string(),
    userName: z.string(),
    planId: z.string(),
    planName: z.string(),
    amount: z.number(),
    currency: z.literal('USD'),
    status: AdminPaymentStatus,
    paymentMethod: z.enum(['stripe', 'simulated']),
    transactionId: z.string(),
    createdDate: timestamp,
    processedDate: timestamp.nullable(),
    refundAmount: z.number(),
    refundReason: z.string().nullable(),
  })
  .meta({ id: 'AdminPayment' });
export type AdminPayment = z.output<typeof AdminPayment>;

/** POST /admin-panel/payments/{id}/refund/: amount at most what is left, step 0.01; reason required. */
export const RefundRequest = z.object({
  amount: money('Amount').refine((v) => v > 0, 'Amount must be more than 0'),
  reason: text('Reason', { max: 500, multiline: true }),
});
export type RefundRequest = z.input<typeof RefundRequest>;

/** GET /admin-panel/dashboard/ (spec "Dashboard stats"). */
export const AdminDashboardStats = z
  .object({
    totalUsers: z.number().int(),
    totalRevenue: z.number(),
    activeSubscriptions: z.number().int(),
    monthlyGrowth: z.number().meta({ description: 'New users this calendar month against last month, in percent.' }),
    recentUsers: z.array(z.object({ id: z.string(), username: z.string(), email: z.string(), plan: z.string(), created_at: timestamp })),
    recentPayments: z.array(
      z.object({ id: z.string(), user: z.string(), amount: z.number(), plan: z.string(), date: timestamp, status: AdminPaymentStatus }),
    ),
    totalDevices: z.number().int().meta({ description: "Customers' devices, revoked ones included." }),
    activeDevices: z.number().int().meta({ description: 'Devices not revoked.' }),
    totalNetworks: z.number().int().meta({ description: 'Networks, suspended ones included.' }),
    suspendedNetworks: z.number().int(),
  })
  .meta({ id: 'AdminDashboardStats' });
export type AdminDashboardStats = z.output<typeof AdminDashboardStats>;
