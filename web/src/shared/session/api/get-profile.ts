import type { User } from '@meshwork/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../api/api-client';
import { browserTokens } from '../browser-tokens';

/** The signed-in user, or null when there is no session. Login, logout and profile edits write here. */
export const profileQueryKey = ['session', 'profile'] as const;

/** GET /profile/: the user the access token belongs to. */
export function fetchProfile(signal?: AbortSignal): Promise<User> {
  return apiClient.get<User>('/profile/', { signal });
}

export function profileQueryOptions() {
  return queryOptions({
    queryKey: profileQueryKey,
    // Without a token there is no session to ask about: anonymous, without a call.
    queryFn: ({ signal }): Promise<User | null> => (browserTokens.getAccess() ? fetchProfile(signal) : Promise.resolve(null)),
    staleTime: 60_000,
    // Spec section 4: a profile that cannot be loaded ends the session, so retrying only delays that.
    retry: false,
  });
}

export function useProfile() {
  return useQuery(profileQueryOptions());
}
