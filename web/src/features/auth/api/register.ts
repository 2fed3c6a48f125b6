import type { AuthResponse, RegisterRequest } from '@meshwork/contracts';
import { mutationOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';
import { startSession } from '../../../shared/session/session';

/** POST /register/: creates the account and signs it in. */
export function register(request: RegisterRequest): Promise<AuthResponse> {
  return apiClient.post<AuthResponse>('/register/', request, { auth: false });
}

export function registerMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: ['auth', 'register'],
    mutationFn: register,
    onSuccess: (auth: AuthResponse) => startSession(queryClient, auth),
  });
}

export function useRegister() {
  return useMutation(registerMutationOptions(useQueryClient()));
}
