import type { Network, RenameNetworkRequest } from '@meshwork/contracts';
import { mutationOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';
import { refreshNetworkData } from './networks-query-keys';

export interface RenameNetworkInput extends RenameNetworkRequest {
  id: string;
}

/** PATCH /networks/{id}/. */
export function renameNetwork({ id, name }: RenameNetworkInput): Promise<Network> {
  return apiClient.patch<Network>(`/networks/${encodeURIComponent(id)}/`, { name });
}

export function renameNetworkMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: ['networks', 'rename'],
    mutationFn: renameNetwork,
    onSuccess: () => void refreshNetworkData(queryClient),
  });
}

export function useRenameNetwork() {
  return useMutation(renameNetworkMutationOptions(useQueryClient()));
}
