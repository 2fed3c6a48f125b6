import type { AuthResponse, LoginRequest } from '@meshwork/contracts';
import { mutationOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';
import { startSession } from '../../../shared/session/session';

/** The site identifies itself as a browser, not a desktop host. */
export const WEB_HARDWARE_FINGERPRINT = 'web-browser';

export type Credentials = Pick<LoginRequest, 'email' | 'password'>;

/** POST /login/. A 401 here means wrong credentials, not an expired session: no refresh. */
export function login(credentials: Credentials): Promise<AuthResponse> {
  const body: LoginRequest = { ...credentials, hardware_fingerprint: WEB_HARDWARE_FINGERPRINT };
  return apiClient.post<AuthResponse>('/login/', body, { auth: false });
}

export function loginMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: ['auth', 'login'],
    mutationFn: login,
    onSuccess: (auth: AuthResponse) => startSession(queryClient, auth),
  });
}

export function useLogin() {
  return useMutation(loginMutationOptions(useQueryClient()));
}
