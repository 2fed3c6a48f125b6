import type { PasswordResetRequest } from '@meshwork/contracts';
import { mutationOptions, useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';

/** POST /password-reset/: mails a reset link to the address. */
export function requestPasswordReset(request: PasswordResetRequest): Promise<void> {
  return apiClient.post<void>('/password-reset/', request, { auth: false });
}

export function requestPasswordResetMutationOptions() {
  return mutationOptions({ mutationKey: ['auth', 'password-reset'], mutationFn: requestPasswordReset });
}

export function useRequestPasswordReset() {
  return useMutation(requestPasswordResetMutationOptions());
}
