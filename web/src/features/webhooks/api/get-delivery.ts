import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';
import type { WebhookDeliveryDetail } from '@meshwork/contracts';
import { webhooksQueryKeys } from './webhooks-query-keys';

/** GET /webhooks/deliveries/{id}: one delivery with the body sent and the start of the answer. */
export function fetchDelivery(deliveryId: string, signal?: AbortSignal): Promise<WebhookDeliveryDetail> {
  return apiClient.get<WebhookDeliveryDetail>(`/webhooks/deliveries/${encodeURIComponent(deliveryId)}`, { signal });
}

export function deliveryQueryOptions(deliveryId: string) {
  return queryOptions({ queryKey: webhooksQueryKeys.delivery(deliveryId), queryFn: ({ signal }) => fetchDelivery(deliveryId, signal) });
}

export function useDelivery(deliveryId: string) {
  return useQuery(deliveryQueryOptions(deliveryId));
}
