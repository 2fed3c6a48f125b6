import type { Network } from '@meshwork/contracts';
import { mutationOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';
import { refreshNetworkData } from './networks-query-keys';

/** DELETE /networks/{id}/host/: the network has no host until another is chosen. */
export function releaseHost(networkId: string): Promise<Network> {
  return apiClient.request<Network>(`/networks/${encodeURIComponent(networkId)}/host/`, { method: 'DELETE' });
}

export function releaseHostMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: ['networks', 'release-host'],
    mutationFn: releaseHost,
    onSuccess: () => void refreshNetworkData(queryClient),
  });
}

export function useReleaseHost() {
  return useMutation(releaseHostMutationOptions(useQueryClient()));
}
