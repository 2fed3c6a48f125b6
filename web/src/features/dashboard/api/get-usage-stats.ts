import type { UsageStats } from '@meshwork/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';
import { billingQueryKeys } from '../../../shared/billing/billing-query-keys';

/** GET /users/usage-stats/: networks used, downloads and payments so far. */
export function fetchUsageStats(signal?: AbortSignal): Promise<UsageStats> {
  return apiClient.get<UsageStats>('/users/usage-stats/', { signal });
}

export function usageStatsQueryOptions() {
  return queryOptions({ queryKey: [...billingQueryKeys.dashboard, 'usage-stats'], queryFn: ({ signal }) => fetchUsageStats(signal) });
}

export function useUsageStats() {
  return useQuery(usageStatsQueryOptions());
}
