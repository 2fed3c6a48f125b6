import { mutationOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';
import type { WebhookDeliveryAnswer } from '@meshwork/contracts';
import { refreshDeliveries } from './webhooks-query-keys';

/** POST /webhooks/endpoints/{id}/test: a `webhook.test` event to this endpoint only. */
export function sendTestEvent(endpointId: string): Promise<WebhookDeliveryAnswer> {
  return apiClient.post<WebhookDeliveryAnswer>(`/webhooks/endpoints/${encodeURIComponent(endpointId)}/test`);
}

export function sendTestEventMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: ['webhooks', 'test'],
    mutationFn: sendTestEvent,
    onSuccess: (_answer, endpointId) => void refreshDeliveries(queryClient, endpointId),
  });
}

export function useSendTestEvent() {
  return useMutation(sendTestEventMutationOptions(useQueryClient()));
}
