import type { SimulatedCheckoutSession } from '@meshwork/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';

export const simulatedCheckoutQueryKey = (sessionId: string) => ['billing', 'simulated-checkout', sessionId] as const;

/** GET /subscriptions/simulated-checkout/{id}/: what the built-in checkout is about to charge. */
export function fetchSimulatedCheckout(sessionId: string, signal?: AbortSignal): Promise<SimulatedCheckoutSession> {
  return apiClient.get<SimulatedCheckoutSession>(`/subscriptions/simulated-checkout/${encodeURIComponent(sessionId)}/`, { signal });
}

export function simulatedCheckoutQueryOptions(sessionId: string) {
  return queryOptions({
    queryKey: simulatedCheckoutQueryKey(sessionId),
    queryFn: ({ signal }) => fetchSimulatedCheckout(sessionId, signal),
  });
}

export function useSimulatedCheckout(sessionId: string) {
  return useQuery(simulatedCheckoutQueryOptions(sessionId));
}
