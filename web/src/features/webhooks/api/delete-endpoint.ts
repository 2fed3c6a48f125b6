import { mutationOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';
import { refreshEndpoints } from './webhooks-query-keys';

/** DELETE /webhooks/endpoints/{id}: nothing more is sent to it. */
export function deleteEndpoint(id: string): Promise<void> {
  return apiClient.request<void>(`/webhooks/endpoints/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function deleteEndpointMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: ['webhooks', 'delete-endpoint'],
    mutationFn: deleteEndpoint,
    onSuccess: () => void refreshEndpoints(queryClient),
  });
}

export function useDeleteEndpoint() {
  return useMutation(deleteEndpointMutationOptions(useQueryClient()));
}
