import { mutationOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';
import type { WebhookEndpointCreated, WebhookEndpointCreate } from '@meshwork/contracts';
import { refreshEndpoints } from './webhooks-query-keys';

/** POST /webhooks/endpoints/: the answer carries the signing secret, which is never shown again. */
export function createEndpoint(input: WebhookEndpointCreate): Promise<WebhookEndpointCreated> {
  return apiClient.post<WebhookEndpointCreated>('/webhooks/endpoints/', input);
}

export function createEndpointMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: ['webhooks', 'create-endpoint'],
    mutationFn: createEndpoint,
    onSuccess: () => void refreshEndpoints(queryClient),
  });
}

export function useCreateEndpoint() {
  return useMutation(createEndpointMutationOptions(useQueryClient()));
}
