import { mutationOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';
import type { WebhookSecretRolled } from '@meshwork/contracts';
import { refreshEndpoints } from './webhooks-query-keys';

export interface RollSecretInput {
  id: string;
  /** How long the old secret keeps signing beside the new one (0 to 72). */
  overlap_hours: number;
}

/** POST /webhooks/endpoints/{id}/roll-secret: a new secret, shown this once. */
export function rollSecret({ id, overlap_hours }: RollSecretInput): Promise<WebhookSecretRolled> {
  return apiClient.post<WebhookSecretRolled>(`/webhooks/endpoints/${encodeURIComponent(id)}/roll-secret`, { overlap_hours });
}

export function rollSecretMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: ['webhooks', 'roll-secret'],
    mutationFn: rollSecret,
    // The hint of the new secret shows in the list.
    onSuccess: () => void refreshEndpoints(queryClient),
  });
}

export function useRollSecret() {
  return useMutation(rollSecretMutationOptions(useQueryClient()));
}
