import type { ActivationDecision, MessageAnswer } from '@meshwork/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';

/** POST /devices/activate/: approve the device (naming it) or deny it. */
export function decideActivation(decision: ActivationDecision): Promise<MessageAnswer> {
  return apiClient.post<MessageAnswer>('/devices/activate/', decision);
}

export function useDecideActivation() {
  return useMutation({ mutationKey: ['activate', 'decide'], mutationFn: decideActivation });
}
