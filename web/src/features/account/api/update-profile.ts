import type { ProfileUpdate, User } from '@meshwork/contracts';
import { mutationOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';
import { profileQueryKey } from '../../../shared/session/api/get-profile';

/** PATCH /profile/: answers with the updated user. */
export function updateProfile(update: ProfileUpdate): Promise<User> {
  return apiClient.patch<User>('/profile/', update);
}

export function updateProfileMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: ['account', 'update-profile'],
    mutationFn: updateProfile,
    // The top bar and the dashboard show the same user: one write updates them all.
    onSuccess: (user: User) => queryClient.setQueryData(profileQueryKey, user),
  });
}

export function useUpdateProfile() {
  return useMutation(updateProfileMutationOptions(useQueryClient()));
}
