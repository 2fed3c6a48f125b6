import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';
import type { WebhookEventTypeList } from '@meshwork/contracts';
import { webhooksQueryKeys } from './webhooks-query-keys';

/** GET /webhooks/event-types/: what an endpoint can subscribe to, each with a line that says when it is sent. */
export function fetchEventTypes(signal?: AbortSignal): Promise<WebhookEventTypeList> {
  return apiClient.get<WebhookEventTypeList>('/webhooks/event-types/', { signal });
}

export function eventTypesQueryOptions() {
  // The list changes only with a release of the api.
  return queryOptions({ queryKey: webhooksQueryKeys.eventTypes, queryFn: ({ signal }) => fetchEventTypes(signal), staleTime: Infinity });
}

export function useEventTypes() {
  return useQuery(eventTypesQueryOptions());
}
