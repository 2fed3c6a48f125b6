import type { Subscription } from '@meshwork/contracts';
import { mutationOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';
import { refreshPlanData } from '../../../shared/billing/billing-query-keys';

/** POST /subscriptions/verify/: confirms a finished checkout session and answers with the new subscription. */
export function verifyCheckout(sessionId: string): Promise<Subscription> {
  return apiClient.post<Subscription>('/subscriptions/verify/', { session_id: sessionId });
}

export function verifyCheckoutMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: ['billing', 'verify-checkout'],
    mutationFn: verifyCheckout,
    onSuccess: () => refreshPlanData(queryClient),
  });
}

export function useVerifyCheckout() {
  return useMutation(verifyCheckoutMutationOptions(useQueryClient()));
}
