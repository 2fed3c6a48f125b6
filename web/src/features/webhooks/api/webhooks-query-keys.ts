import type { QueryClient } from '@tanstack/react-query';

export const webhooksQueryKeys = {
  eventTypes: ['webhooks', 'event-types'],
  endpoints: ['webhooks', 'endpoints'],
  /** Every page of one endpoint's log. */
  deliveries: (endpointId: string) => ['webhooks', 'deliveries', endpointId] as const,
  deliveryPage: (endpointId: string, page: number) => ['webhooks', 'deliveries', endpointId, page] as const,
  delivery: (deliveryId: string) => ['webhooks', 'delivery', deliveryId] as const,
} as const;

/** After a change to an endpoint: the list (and each endpoint's page, which reads it) shows it. */
export function refreshEndpoints(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: webhooksQueryKeys.endpoints });
}

/** After a test event or a resend: the endpoint's log shows the new delivery. */
export function refreshDeliveries(queryClient: QueryClient, endpointId: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: webhooksQueryKeys.deliveries(endpointId) });
}
