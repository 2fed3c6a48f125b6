import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError } from '../../../shared/api/api-error';
import { apiClient } from '../../../shared/api/api-client';
import type { WebhookEndpointList } from '@meshwork/contracts';
import { webhooksQueryKeys } from './webhooks-query-keys';

/** GET /webhooks/endpoints/: the customer's endpoints; 403 when the plan has no webhooks. */
export function fetchEndpoints(signal?: AbortSignal): Promise<WebhookEndpointList> {
  return apiClient.get<WebhookEndpointList>('/webhooks/endpoints/', { signal });
}

/** The api's answer for a plan without webhooks: the page explains them and offers the upgrade. */
export const isPlanWithoutWebhooks = (error: unknown): boolean => error instanceof ApiError && error.status === 403;

export function endpointsQueryOptions() {
  return queryOptions({
    queryKey: webhooksQueryKeys.endpoints,
    queryFn: ({ signal }) => fetchEndpoints(signal),
    // A plan refusal will not change by asking again.
    retry: (failures, error) => !isPlanWithoutWebhooks(error) && failures < 2,
  });
}

export function useEndpoints() {
  return useQuery(endpointsQueryOptions());
}
