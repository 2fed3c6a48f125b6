import type { PendingActivation } from '@meshwork/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';

/** GET /devices/activate/?user_code=: the sign-in request behind a code, to confirm. */
export function fetchPendingActivation(userCode: string, signal?: AbortSignal): Promise<PendingActivation> {
  return apiClient.get<PendingActivation>(`/devices/activate/?user_code=${encodeURIComponent(userCode)}`, { signal });
}

export function pendingActivationQueryOptions(userCode: string) {
  return queryOptions({
    queryKey: ['activate', userCode],
    queryFn: ({ signal }) => fetchPendingActivation(userCode, signal),
    // A code is decided once: a cached answer or a refetch after the decision would show a stale request.
    gcTime: 0,
    staleTime: Infinity,
  });
}

/** Asked for only once a code was entered (`null` until then). */
export function usePendingActivation(userCode: string | null) {
  return useQuery({ ...pendingActivationQueryOptions(userCode ?? ''), enabled: userCode !== null });
}
