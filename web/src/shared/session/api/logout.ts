import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../api/api-client';
import { browserTokens } from '../browser-tokens';
import { endSession } from '../session';

/** POST /logout/: revokes the refresh token on the server. */
export function logout(refreshToken: string): Promise<void> {
  // No refresh-and-retry here: an expired session is being ended anyway.
  return apiClient.post<void>('/logout/', { refresh_token: refreshToken }, { refreshOnUnauthorized: false });
}

/** Signs out locally whatever the server answers: a failed call must not keep anyone signed in. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const refresh = browserTokens.getRefresh();
      if (!refresh) return;
      await logout(refresh).catch(() => undefined);
    },
    onSettled: () => endSession(queryClient),
  });
}
