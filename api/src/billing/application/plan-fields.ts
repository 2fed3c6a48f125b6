import type { z } from 'zod';
import { centsOf, type PlanUpdate } from '@meshwork/contracts';
import type { PlanTerms } from '../domain/plan';

/** Staff's plan fields as the console sends them (every one optional on an update). */
export type PlanFields = z.output<typeof PlanUpdate>;

/** Staff's plan fields in the domain's terms; unset fields stay as they are. */
export function termsChanges(fields: PlanFields): Partial<PlanTerms> {
  const changes: Partial<PlanTerms> = {};
  if (fields.name !== undefined) changes.name = fields.name;
  if (fields.description !== undefined) changes.description = fields.description;
  if (fields.price !== undefined) changes.priceCents = centsOf(fields.price);
  if (fields.yearly_price !== undefined) changes.yearlyPriceCents = centsOf(fields.yearly_price);
  if (fields.duration_days !== undefined) changes.durationDays = fields.duration_days;
  if (fields.max_networks !== undefined) changes.maxNetworks = fields.max_networks;
  if (fields.max_clients !== undefined) changes.maxClientsPerNetwork = fields.max_clients;
  if (fields.features !== undefined) changes.features = [...new Set(fields.features)];
  if (fields.model_access !== undefined) changes.modelAccess = fields.model_access;
  if (fields.api_access !== undefined) changes.apiAccess = fields.api_access;
  if (fields.download_access !== undefined) changes.downloadAccess = fields.download_access;
  if (fields.api_token_scope !== undefined) changes.apiTokenScope = fields.api_token_scope;
  if (fields.api_requests_per_minute !== undefined) changes.apiRequestsPerMinute = fields.api_requests_per_minute;
  if (fields.webhooks !== undefined) changes.webhooks = fields.webhooks;
  if (fields.usage_history_days !== undefined) changes.usageHistoryDays = fields.usage_history_days;
  if (fields.tier !== undefined) changes.tier = fields.tier;
  return changes;
}

const slugOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);

/** The id a new plan gets: its slug, from the name unless given. */
export const planIdOf = (input: { slug?: string; name: string }) => input.slug ?? slugOf(input.name);
