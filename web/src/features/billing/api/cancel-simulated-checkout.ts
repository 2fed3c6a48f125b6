import { mutationOptions, useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';

/** POST /subscriptions/simulated-checkout/{id}/cancel/: abandons the checkout; nothing is charged. */
export function cancelSimulatedCheckout(sessionId: string): Promise<void> {
  return apiClient.post<void>(`/subscriptions/simulated-checkout/${encodeURIComponent(sessionId)}/cancel/`);
}

export function cancelSimulatedCheckoutMutationOptions() {
  return mutationOptions({ mutationKey: ['billing', 'cancel-simulated-checkout'], mutationFn: cancelSimulatedCheckout });
}

export function useCancelSimulatedCheckout() {
  return useMutation(cancelSimulatedCheckoutMutationOptions());
}
