import type { AssignHostRequest, Network } from '@meshwork/contracts';
import { mutationOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';
import { refreshNetworkData } from './networks-query-keys';

export interface AssignHostInput extends AssignHostRequest {
  networkId: string;
}

/** POST /networks/{id}/host/: one of the customer's active devices hosts the network. */
export function assignHost({ networkId, device_id }: AssignHostInput): Promise<Network> {
  return apiClient.post<Network>(`/networks/${encodeURIComponent(networkId)}/host/`, { device_id });
}

export function assignHostMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: ['networks', 'assign-host'],
    mutationFn: assignHost,
    onSuccess: () => void refreshNetworkData(queryClient),
  });
}

export function useAssignHost() {
  return useMutation(assignHostMutationOptions(useQueryClient()));
}
