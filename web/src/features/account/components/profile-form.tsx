import { ProfileUpdate, type User } from '@meshwork/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { applyServerErrors } from '../../../shared/forms/apply-server-errors';
import { notifyFailure, notifySuccess } from '../../../shared/toast/notify';
import { Button } from '../../../shared/ui/button';
import { Spinner } from '../../../shared/ui/spinner';
import { TextField } from '../../../shared/ui/text-field';
import { useUpdateProfile } from '../api/update-profile';
import { SettingsSection } from './section';

// Every field is sent, so every field is checked: an emptied username is an error, not "unchanged".
const ProfileForm = ProfileUpdate.required();
type ProfileInput = z.input<typeof ProfileForm>;
type ProfileOutput = z.output<typeof ProfileForm>;

const serverFields = { username: 'username', email: 'email', first_name: 'first_name', last_name: 'last_name' } as const;

function formValues(user: User): ProfileInput {
  return { first_name: user.first_name ?? '', last_name: user.last_name ?? '', username: user.username ?? '', email: user.email ?? '' };
}

export function ProfileFormSection({ user }: { user: User }) {
  const updateProfile = useUpdateProfile();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isDirty },
  } = useForm<ProfileInput, unknown, ProfileOutput>({
    resolver: zodResolver(ProfileForm),
    // Follows the user as it is saved or refetched, without wiping what is being typed.
    values: formValues(user),
    resetOptions: { keepDirtyValues: true },
  });

  const onSubmit = handleSubmit((update) =>
    updateProfile.mutate(update, {
      onSuccess: () => notifySuccess('Profile updated successfully!'),
      onError: (error) => {
        applyServerErrors(error, setError, serverFields);
        notifyFailure('Failed to update profile', error);
      },
    }),
  );

  return (
    <SettingsSection title="Profile" description="How you appear in Meshwork and where we reach you.">
      <form noValidate onSubmit={onSubmit} className="space-y-5">
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField label="First name" autoComplete="given-name" error={errors.first_name?.message} {...register('first_name')} />
          <TextField label="Last name" autoComplete="family-name" error={errors.last_name?.message} {...register('last_name')} />
        </div>
        <TextField label="Username" autoComplete="username" error={errors.username?.message} {...register('username')} />
        <TextField label="Email" type="email" autoComplete="email" error={errors.email?.message} {...register('email')} />
        <div className="flex justify-end">
          <Button type="submit" disabled={updateProfile.isPending || !isDirty}>
            {updateProfile.isPending && <Spinner />}
            {updateProfile.isPending ? 'Saving…' : 'Save Changes'}
          </Button>
        </div>
      </form>
    </SettingsSection>
  );
}
