import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';
import type { WebhookDeliveryPage } from '@meshwork/contracts';
import { webhooksQueryKeys } from './webhooks-query-keys';

/** The api's page size ("newest first, 25 a page"): the pages are counted from the total with it. */
export const DELIVERIES_PER_PAGE = 25;

/** While a delivery is still being tried the log asks again this often, so its outcome shows without a reload. */
const IN_FLIGHT_REFRESH_MS = 2_000;

/** GET /webhooks/endpoints/{id}/deliveries/?page=N: one page of the log, newest first, and the total. */
export function fetchDeliveries(endpointId: string, page: number, signal?: AbortSignal): Promise<WebhookDeliveryPage> {
  return apiClient.get<WebhookDeliveryPage>(`/webhooks/endpoints/${encodeURIComponent(endpointId)}/deliveries/?page=${page}`, { signal });
}

export function deliveriesQueryOptions(endpointId: string, page: number) {
  return queryOptions({
    queryKey: webhooksQueryKeys.deliveryPage(endpointId, page),
    queryFn: ({ signal }) => fetchDeliveries(endpointId, page, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.results.some((d) => d.status === 'pending' || d.status === 'retrying') ? IN_FLIGHT_REFRESH_MS : false,
  });
}

export function useDeliveries(endpointId: string, page: number) {
  return useQuery(deliveriesQueryOptions(endpointId, page));
}
