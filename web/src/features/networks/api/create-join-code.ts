import type { JoinCode } from '@meshwork/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';

/** POST /networks/{id}/join-code/: a fresh code for the network's clients; it replaces the one before. */
export function createJoinCode(networkId: string): Promise<JoinCode> {
  return apiClient.post<JoinCode>(`/networks/${encodeURIComponent(networkId)}/join-code/`);
}

/** A mutation, not a query: every press makes a new code, and nothing else shows it. */
export function useCreateJoinCode() {
  return useMutation({ mutationKey: ['networks', 'join-code'], mutationFn: createJoinCode });
}
