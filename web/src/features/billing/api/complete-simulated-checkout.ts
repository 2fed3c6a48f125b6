import { mutationOptions, useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';

/** POST /subscriptions/simulated-checkout/{id}/complete/: "pays"; the billing page then verifies the session. */
export function completeSimulatedCheckout(sessionId: string): Promise<void> {
  return apiClient.post<void>(`/subscriptions/simulated-checkout/${encodeURIComponent(sessionId)}/complete/`);
}

export function completeSimulatedCheckoutMutationOptions() {
  return mutationOptions({ mutationKey: ['billing', 'complete-simulated-checkout'], mutationFn: completeSimulatedCheckout });
}

export function useCompleteSimulatedCheckout() {
  return useMutation(completeSimulatedCheckoutMutationOptions());
}
