import type { DeviceRename, MessageAnswer } from '@meshwork/contracts';
import { mutationOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';
import { refreshNetworkData } from './networks-query-keys';

export interface RenameDeviceInput extends DeviceRename {
  id: string;
}

/** POST /devices/{id}/rename/. */
export function renameDevice({ id, name }: RenameDeviceInput): Promise<MessageAnswer> {
  return apiClient.post<MessageAnswer>(`/devices/${encodeURIComponent(id)}/rename/`, { name });
}

export function renameDeviceMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: ['devices', 'rename'],
    mutationFn: renameDevice,
    onSuccess: () => void refreshNetworkData(queryClient),
  });
}

export function useRenameDevice() {
  return useMutation(renameDeviceMutationOptions(useQueryClient()));
}
