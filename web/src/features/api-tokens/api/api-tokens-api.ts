import { mutationOptions, queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { ApiTokenList, CreateApiTokenRequest, CreatedApiToken } from '@meshwork/contracts';
import { apiClient } from '../../../shared/api/api-client';

const TOKENS_KEY = ['api-tokens'] as const;

/** GET /users/api-tokens/: the caller's unrevoked tokens and what their plan allows. */
export function apiTokensQueryOptions() {
  return queryOptions({ queryKey: TOKENS_KEY, queryFn: () => apiClient.get<ApiTokenList>('/users/api-tokens/') });
}

export function useApiTokens() {
  return useQuery(apiTokensQueryOptions());
}

const refresh = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: TOKENS_KEY });

/** POST /users/api-tokens/: the answer carries the secret, shown this once. */
export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation(
    mutationOptions({
      mutationKey: ['api-tokens', 'create'],
      mutationFn: (input: CreateApiTokenRequest) => apiClient.post<CreatedApiToken>('/users/api-tokens/', input),
      onSuccess: () => void refresh(queryClient),
    }),
  );
}

/** DELETE /users/api-tokens/{id}/: refused from the next request on. */
export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation(
    mutationOptions({
      mutationKey: ['api-tokens', 'revoke'],
      mutationFn: (id: string) => apiClient.request<void>(`/users/api-tokens/${encodeURIComponent(id)}/`, { method: 'DELETE' }),
      onSuccess: () => void refresh(queryClient),
    }),
  );
}
