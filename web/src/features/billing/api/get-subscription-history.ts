import type { SubscriptionHistory } from '@meshwork/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';
import { billingQueryKeys } from '../../../shared/billing/billing-query-keys';

/** GET /subscriptions/list/: the subscription and its payments, newest first. */
export function fetchSubscriptionHistory(signal?: AbortSignal): Promise<SubscriptionHistory> {
  return apiClient.get<SubscriptionHistory>('/subscriptions/list/', { signal });
}

export function subscriptionHistoryQueryOptions() {
  return queryOptions({ queryKey: billingQueryKeys.history, queryFn: ({ signal }) => fetchSubscriptionHistory(signal) });
}

export function useSubscriptionHistory() {
  return useQuery(subscriptionHistoryQueryOptions());
}
