import { moneyText, type Payment, type Plan } from '@meshwork/contracts';
import { readModelSchema } from '../../platform/projections/projection';
import { BILLING_PROJECTION } from '../projections/billing.projection';

/** The billing read model's schema: the customer's and the console's queries read its tables. */
export const BILLING_SCHEMA = readModelSchema(BILLING_PROJECTION);

export interface PlanRow {
  id: string;
  name: string;
  description: string;
  price_cents: number;
  yearly_price_cents: number;
  duration_days: number;
  max_networks: number;
  max_clients_per_network: number;
  features: string[];
  model_access: string;
  api_access: string;
  download_access: boolean;
  tier: number;
  popular: boolean;
  is_active: boolean;
  archived: boolean;
}

export interface PaymentRow {
  id: string;
  user_id: string;
  plan_id: string;
  amount_cents: number;
  status: Payment['status'];
  kind: string;
  provider: 'stripe' | 'simulated';
  transaction_id: string;
  refunded_cents: number;
  refund_reason: string | null;
  created_at: Date;
  processed_at: Date | null;
}

/** The plan as the contract shows it; `allowedModels` are the catalog's (PlanModelNames). */
export function toPlan(row: PlanRow, allowedModels: string[]): Plan {
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
    tier: row.tier,
    popular: row.popular,
    is_active: row.is_active,
  };
}

export const iso = (d: Date | null) => (d ? d.toISOString() : null);
