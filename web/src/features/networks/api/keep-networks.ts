import type { KeepNetworksRequest, NetworkList } from '@meshwork/contracts';
import { mutationOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';
import { networksQueryKeys, refreshNetworkData } from './networks-query-keys';

/** POST /networks/keep/: the networks to run when the plan allows fewer; the answer is the new list. */
export function keepNetworks(request: KeepNetworksRequest): Promise<NetworkList> {
  return apiClient.post<NetworkList>('/networks/keep/', request);
}

export function keepNetworksMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: ['networks', 'keep'],
    mutationFn: keepNetworks,
    onSuccess: (list) => {
      queryClient.setQueryData(networksQueryKeys.networks, list);
      void refreshNetworkData(queryClient);
    },
  });
}

export function useKeepNetworks() {
  return useMutation(keepNetworksMutationOptions(useQueryClient()));
}
