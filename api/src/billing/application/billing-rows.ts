import { moneyText, type Plan } from '@meshwork/contracts';
import { readModelSchema } from '../../platform/projections/projection';
import { BILLING_PROJECTION, type PlanRecord } from '../projections/billing.entities';

/** The billing read model's schema: the customer's and the console's queries read its tables. */
export const BILLING_SCHEMA = readModelSchema(BILLING_PROJECTION);

/** The plan as the contract shows it; `allowedModels` are the catalog's (PlanModelNames). */
export function toPlan(row: PlanRecord, allowedModels: string[]): Plan {
  return {
    id: row.id,
    slug: row.id,
    name: row.name,
    description: row.description,
    price: moneyText(row.price_cents),
    yearly_price: moneyText(row.yearly_price_cents),
    currency: 'USD',
    duration_days: row.duration_days,
    max_networks: row.max_networks,
    max_clients_per_network: row.max_clients_per_network,
    max_clients: row.max_clients_per_network,
    allowed_models: allowedModels,
    features: row.features,
    model_access: row.model_access,
    api_access: row.api_access,
    download_access: row.download_access,
    api_token_scope: row.api_token_scope,
    api_requests_per_minute: row.api_requests_per_minute,
    webhooks: row.webhooks,
    usage_history_days: row.usage_history_days,
    tier: row.tier,
    popular: row.popular,
    is_active: row.is_active,
  };
}

export const iso = (d: Date | null) => (d ? d.toISOString() : null);
