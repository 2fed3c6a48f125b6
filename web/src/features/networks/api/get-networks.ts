import type { NetworkList } from '@meshwork/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';
import { networksQueryKeys } from './networks-query-keys';

/** GET /networks/: the networks, oldest first, and the plan's limits in use. */
export function fetchNetworks(signal?: AbortSignal): Promise<NetworkList> {
  return apiClient.get<NetworkList>('/networks/', { signal });
}

export function networksQueryOptions() {
  return queryOptions({ queryKey: networksQueryKeys.networks, queryFn: ({ signal }) => fetchNetworks(signal) });
}

export function useNetworks() {
  return useQuery(networksQueryOptions());
}
