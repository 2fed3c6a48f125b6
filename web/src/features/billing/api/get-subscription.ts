import type { Subscription } from '@meshwork/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';
import { billingQueryKeys } from '../../../shared/billing/billing-query-keys';

/** GET /subscriptions/subscription/: the signed-in user's subscription now. */
export function fetchSubscription(signal?: AbortSignal): Promise<Subscription> {
  return apiClient.get<Subscription>('/subscriptions/subscription/', { signal });
}

export function subscriptionQueryOptions() {
  return queryOptions({ queryKey: billingQueryKeys.subscription, queryFn: ({ signal }) => fetchSubscription(signal) });
}

export function useSubscription() {
  return useQuery(subscriptionQueryOptions());
}
