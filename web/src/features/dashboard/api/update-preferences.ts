import type { Preferences, PreferencesUpdate, UserDashboard } from '@meshwork/contracts';
import { mutationOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';
import { dashboardQueryKey } from './get-dashboard';

/** PATCH /users/preferences/: onboarding completion, kept per user on the server. */
export function updatePreferences(update: PreferencesUpdate): Promise<Preferences> {
  return apiClient.patch<Preferences>('/users/preferences/', update);
}

export function updatePreferencesMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: ['dashboard', 'update-preferences'],
    mutationFn: updatePreferences,
    // The dashboard decides from these whether to show the onboarding; keep its copy current without a refetch.
    onSuccess: (preferences: Preferences) =>
      queryClient.setQueryData<UserDashboard>(dashboardQueryKey, (dashboard) => dashboard && { ...dashboard, preferences }),
  });
}

export function useUpdatePreferences() {
  return useMutation(updatePreferencesMutationOptions(useQueryClient()));
}
