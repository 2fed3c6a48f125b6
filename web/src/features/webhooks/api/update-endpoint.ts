import { mutationOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';
import type { WebhookEndpoint, WebhookEndpointUpdate } from '@meshwork/contracts';
import { refreshEndpoints } from './webhooks-query-keys';

export interface UpdateEndpointInput extends WebhookEndpointUpdate {
  id: string;
}

/** PATCH /webhooks/endpoints/{id}: edits, disables, or enables again (also one the api disabled after failures). */
export function updateEndpoint({ id, ...changes }: UpdateEndpointInput): Promise<WebhookEndpoint> {
  return apiClient.patch<WebhookEndpoint>(`/webhooks/endpoints/${encodeURIComponent(id)}`, changes);
}

export function updateEndpointMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: ['webhooks', 'update-endpoint'],
    mutationFn: updateEndpoint,
    onSuccess: () => void refreshEndpoints(queryClient),
  });
}

export function useUpdateEndpoint() {
  return useMutation(updateEndpointMutationOptions(useQueryClient()));
}
