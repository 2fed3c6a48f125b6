import type { SubscribeRequest, SubscribeResponse } from '@meshwork/contracts';
import { mutationOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiClient } from '../../api/api-client';
import { refreshPlanData } from '../billing-query-keys';

/** POST /subscriptions/create/: subscribe, upgrade now, or schedule a downgrade; may answer with a checkout URL. */
export function subscribe(request: SubscribeRequest): Promise<SubscribeResponse> {
  return apiClient.post<SubscribeResponse>('/subscriptions/create/', request);
}

export function subscribeMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: ['billing', 'subscribe'],
    mutationFn: subscribe,
    // A checkout URL means nothing changed yet: the page is about to be left for the payment.
    onSuccess: (response: SubscribeResponse) => (response.payment_url ? undefined : refreshPlanData(queryClient)),
  });
}

export function useSubscribe() {
  return useMutation(subscribeMutationOptions(useQueryClient()));
}
