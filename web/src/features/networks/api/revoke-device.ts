import type { MessageAnswer } from '@meshwork/contracts';
import { mutationOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';
import { refreshNetworkData } from './networks-query-keys';

/** POST /devices/{id}/revoke/: the device is signed out at once and leaves its networks. */
export function revokeDevice(id: string): Promise<MessageAnswer> {
  return apiClient.post<MessageAnswer>(`/devices/${encodeURIComponent(id)}/revoke/`);
}

export function revokeDeviceMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: ['devices', 'revoke'],
    mutationFn: revokeDevice,
    onSuccess: () => void refreshNetworkData(queryClient),
  });
}

export function useRevokeDevice() {
  return useMutation(revokeDeviceMutationOptions(useQueryClient()));
}
