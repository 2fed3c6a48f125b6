import { mutationOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';
import { refreshNetworkData } from './networks-query-keys';

/** DELETE /networks/{id}/. */
export function deleteNetwork(id: string): Promise<{ id: string }> {
  return apiClient.request<{ id: string }>(`/networks/${encodeURIComponent(id)}/`, { method: 'DELETE' });
}

export function deleteNetworkMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: ['networks', 'delete'],
    mutationFn: deleteNetwork,
    onSuccess: () => void refreshNetworkData(queryClient),
  });
}

export function useDeleteNetwork() {
  return useMutation(deleteNetworkMutationOptions(useQueryClient()));
}
