import type { Network } from '@meshwork/contracts';
import { mutationOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';
import { refreshNetworkData } from './networks-query-keys';

export interface RemoveClientInput {
  networkId: string;
  deviceId: string;
}

/** DELETE /networks/{id}/clients/{device_id}/. */
export function removeClient({ networkId, deviceId }: RemoveClientInput): Promise<Network> {
  return apiClient.request<Network>(`/networks/${encodeURIComponent(networkId)}/clients/${encodeURIComponent(deviceId)}/`, {
    method: 'DELETE',
  });
}

export function removeClientMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: ['networks', 'remove-client'],
    mutationFn: removeClient,
    onSuccess: () => void refreshNetworkData(queryClient),
  });
}

export function useRemoveClient() {
  return useMutation(removeClientMutationOptions(useQueryClient()));
}
