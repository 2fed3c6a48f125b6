import type { ChangePasswordRequest } from '@meshwork/contracts';
import { mutationOptions, useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';

/** POST /change-password/. */
export function changePassword(request: ChangePasswordRequest): Promise<void> {
  return apiClient.post<void>('/change-password/', request);
}

export function changePasswordMutationOptions() {
  return mutationOptions({ mutationKey: ['account', 'change-password'], mutationFn: changePassword });
}

export function useChangePassword() {
  return useMutation(changePasswordMutationOptions());
}
