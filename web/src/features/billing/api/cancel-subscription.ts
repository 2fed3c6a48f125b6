import type { Subscription } from '@meshwork/contracts';
import { mutationOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';
import { refreshPlanData } from '../../../shared/billing/billing-query-keys';

/** POST /subscriptions/cancel/: the plan stays until the end of the paid period. */
export function cancelSubscription(): Promise<Subscription> {
  return apiClient.post<Subscription>('/subscriptions/cancel/');
}

export function cancelSubscriptionMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: ['billing', 'cancel-subscription'],
    mutationFn: cancelSubscription,
    // Not awaited: the refetched subscription can no longer be cancelled, which unmounts the button
    // and would drop the caller's success toast if it had to wait for the refetch.
    onSuccess: () => void refreshPlanData(queryClient),
  });
}

export function useCancelSubscription() {
  return useMutation(cancelSubscriptionMutationOptions(useQueryClient()));
}
