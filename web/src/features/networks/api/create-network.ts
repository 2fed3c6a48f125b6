import type { CreateNetworkRequest, Network } from '@meshwork/contracts';
import { mutationOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';
import { refreshNetworkData } from './networks-query-keys';

/** POST /networks/create/: refused with 403/409 and a message for the customer when the plan does not allow it. */
export function createNetwork(request: CreateNetworkRequest): Promise<Network> {
  return apiClient.post<Network>('/networks/create/', request);
}

export function createNetworkMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: ['networks', 'create'],
    mutationFn: createNetwork,
    onSuccess: () => void refreshNetworkData(queryClient),
  });
}

export function useCreateNetwork() {
  return useMutation(createNetworkMutationOptions(useQueryClient()));
}
