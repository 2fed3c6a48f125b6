import { mutationOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';
import type { WebhookDeliveryAnswer } from '@meshwork/contracts';
import { refreshDeliveries } from './webhooks-query-keys';

export interface ResendInput {
  deliveryId: string;
  /** The endpoint whose log shows the new delivery. */
  endpointId: string;
}

/** POST /webhooks/deliveries/{id}/resend: a new series of attempts of the same event (same event id). */
export function resendDelivery({ deliveryId }: ResendInput): Promise<WebhookDeliveryAnswer> {
  return apiClient.post<WebhookDeliveryAnswer>(`/webhooks/deliveries/${encodeURIComponent(deliveryId)}/resend`);
}

export function resendDeliveryMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: ['webhooks', 'resend'],
    mutationFn: resendDelivery,
    onSuccess: (_answer, { endpointId }) => void refreshDeliveries(queryClient, endpointId),
  });
}

export function useResendDelivery() {
  return useMutation(resendDeliveryMutationOptions(useQueryClient()));
}
