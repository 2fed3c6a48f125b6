import {
  type AdminPlan,
  type ApiTokenScopeLimit,
  PLAN_FEATURE_CHOICES,
  type PlanInput,
  type PlanUpdate,
  UNLIMITED,
} from '@meshwork/contracts';

export type { AdminPlan };

/** The fixed feature choices of the plan form (spec section 9); the stored values are the labels themselves. */
export const featureChoices = PLAN_FEATURE_CHOICES.map((feature) => ({ id: feature, name: feature }));

/** What the plan form edits. A cleared number input holds null. */
export interface PlanFormValues {
  name: string;
  slug?: string;
  description: string;
  price: number | null;
  /** Empty: the server prices the year at 12 x monthly x 0.83. */
  yearly_price: number | null;
  duration_days: number | null;
  max_clients: number | null;
  max_networks: number | null;
  allowed_models: string[];
  features: string[];
  api_token_scope: ApiTokenScopeLimit;
  api_requests_per_minute: number | null;
  webhooks: boolean;
  usage_history_days: number | null;
  is_active: boolean;
}

/** Spec section 9: price 0, 30 days, 1 client, active. */
export const newPlanDefaults: PlanFormValues = {
  name: '',
  slug: '',
  description: '',
  price: 0,
  yearly_price: null,
  duration_days: 30,
  max_clients: 1,
  max_networks: 1,
  allowed_models: [],
  features: [],
  // The free plan's API terms (the server's defaults for a new plan).
  api_token_scope: 'read',
  api_requests_per_minute: 60,
  webhooks: false,
  usage_history_days: 7,
  is_active: true,
};

/** The API token scopes a plan may allow, for the form's select. */
export const apiTokenScopeChoices = (['none', 'read', 'read_write'] as const).map((id) => ({
  id,
  name: `resources.plans.api_token_scopes.${id}`,
}));

/** The form's starting point for an existing plan; money arrives as text ("29.00"). */
export function formValuesOf(plan: AdminPlan): PlanFormValues {
  return {
    name: plan.name,
    description: plan.description,
    price: Number(plan.price),
    yearly_price: Number(plan.yearly_price),
    duration_days: plan.duration_days,
    max_clients: plan.max_clients,
    max_networks: plan.max_networks,
    allowed_models: plan.allowed_models,
    features: plan.features,
    api_token_scope: plan.api_token_scope,
    api_requests_per_minute: plan.api_requests_per_minute,
    webhooks: plan.webhooks,
    usage_history_days: plan.usage_history_days,
    is_active: plan.is_active,
  };
}

const orUndefined = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

/**
 * PUT /admin-panel/plans/{id}: the form's fields only, never the read-only ones (subscribers,
 * tier...). An empty yearly price is left out, which keeps the server's figure.
 */
export function planUpdateOf(values: PlanFormValues): PlanUpdate {
  return {
    name: values.name,
    description: values.description ?? '',
    price: orUndefined(values.price),
    yearly_price: orUndefined(values.yearly_price),
    duration_days: orUndefined(values.duration_days),
    max_clients: orUndefined(values.max_clients),
    max_networks: orUndefined(values.max_networks),
    allowed_models: values.allowed_models,
    features: values.features,
    api_token_scope: values.api_token_scope,
    api_requests_per_minute: orUndefined(values.api_requests_per_minute),
    webhooks: values.webhooks,
    usage_history_days: orUndefined(values.usage_history_days),
    is_active: values.is_active,
  };
}

/** POST /admin-panel/plans: as an update, plus the slug when one was typed (else the server derives it from the name). */
export function planInputOf(values: PlanFormValues): PlanInput {
  const slug = values.slug?.trim();
  return { ...planUpdateOf(values), name: values.name, ...(slug ? { slug } : {}) };
}

/** Limits of 999 and above mean "no limit" (spec section 2). */
export const isUnlimited = (limit: number): boolean => limit >= UNLIMITED;

/** A card lists this many features, then '+N more' (spec section 2). */
export const FEATURES_ON_CARD = 5;
