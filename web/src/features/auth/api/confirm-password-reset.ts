import type { PasswordResetConfirm } from '@meshwork/contracts';
import { mutationOptions, useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';

/** POST /password-reset-confirm/: sets a new password with the token from the mailed link. */
export function confirmPasswordReset(request: PasswordResetConfirm): Promise<void> {
  return apiClient.post<void>('/password-reset-confirm/', request, { auth: false });
}

export function confirmPasswordResetMutationOptions() {
  return mutationOptions({ mutationKey: ['auth', 'password-reset-confirm'], mutationFn: confirmPasswordReset });
}

export function useConfirmPasswordReset() {
  return useMutation(confirmPasswordResetMutationOptions());
}
