import type { Plan } from '@meshwork/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../api/api-client';
import { billingQueryKeys } from '../billing-query-keys';

/** GET /subscriptions/plans/: public, sorted by tier. */
export function fetchPlans(signal?: AbortSignal): Promise<Plan[]> {
  // Public: a stale token must not turn the price list into a trip to /login.
  return apiClient.get<Plan[]>('/subscriptions/plans/', { signal, auth: false });
}

// The server sorts, but the cards, table and upgrade rule all depend on tier order: never trust it blindly.
const byTier = (plans: Plan[]) => [...plans].sort((a, b) => a.tier - b.tier);

export function plansQueryOptions() {
  return queryOptions({
    queryKey: billingQueryKeys.plans,
    queryFn: ({ signal }) => fetchPlans(signal),
    select: byTier,
    staleTime: 5 * 60_000,
  });
}

export function usePlans() {
  return useQuery(plansQueryOptions());
}
