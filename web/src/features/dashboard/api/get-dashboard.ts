import type { UserDashboard } from '@meshwork/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';
import { billingQueryKeys } from '../../../shared/billing/billing-query-keys';

/** Under the dashboard prefix, so a plan change refreshes it. */
export const dashboardQueryKey = [...billingQueryKeys.dashboard, 'summary'] as const;

/** GET /users/dashboard/: the user, their plan info, subscription, latest payments and onboarding preferences. */
export function fetchDashboard(signal?: AbortSignal): Promise<UserDashboard> {
  return apiClient.get<UserDashboard>('/users/dashboard/', { signal });
}

export function dashboardQueryOptions() {
  return queryOptions({ queryKey: dashboardQueryKey, queryFn: ({ signal }) => fetchDashboard(signal) });
}

export function useDashboard() {
  return useQuery(dashboardQueryOptions());
}
