import type { AuthResponse } from '@meshwork/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { browserTokens } from './browser-tokens';
import { profileQueryKey } from './api/get-profile';

/** After login or registration: keep both tokens and the user. */
export function startSession(queryClient: QueryClient, auth: AuthResponse): void {
  browserTokens.save(auth.tokens.access, auth.tokens.refresh);
  queryClient.setQueryData(profileQueryKey, auth.user);
}

/** Forget the tokens, the user and everything cached for them, so the next user sees none of it. */
export function endSession(queryClient: QueryClient): void {
  browserTokens.clear();
  void queryClient.cancelQueries({ queryKey: profileQueryKey });
  // The profile query stays (mounted observers watch it) and now says "nobody"; the rest is dropped.
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== profileQueryKey[0] });
  queryClient.setQueryData(profileQueryKey, null);
}
