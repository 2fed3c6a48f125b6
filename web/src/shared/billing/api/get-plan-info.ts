import type { PlanInfo } from '@meshwork/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../api/api-client';
import { billingQueryKeys } from '../billing-query-keys';

/** GET /plan/: the signed-in user's plan, limits, models and upgrade options. */
export function fetchPlanInfo(signal?: AbortSignal): Promise<PlanInfo> {
  return apiClient.get<PlanInfo>('/plan/', { signal });
}

export function planInfoQueryOptions() {
  return queryOptions({ queryKey: billingQueryKeys.planInfo, queryFn: ({ signal }) => fetchPlanInfo(signal) });
}

/** Only asked for when someone is signed in (`enabled`). */
export function usePlanInfo({ enabled }: { enabled: boolean }) {
  return useQuery({ ...planInfoQueryOptions(), enabled });
}
