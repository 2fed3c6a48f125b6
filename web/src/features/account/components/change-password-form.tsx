import { ChangePasswordRequest, messages } from '@meshwork/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { applyServerErrors } from '../../../shared/forms/apply-server-errors';
import { whenBothFilled } from '../../../shared/forms/when-both-filled';
import { notifyFailure, notifySuccess } from '../../../shared/toast/notify';
import { Button } from '../../../shared/ui/button';
import { Spinner } from '../../../shared/ui/spinner';
import { PasswordField } from '../../../shared/ui/text-field';
import { useChangePassword } from '../api/change-password';
import { SettingsSection } from './section';

const { old_password, new_password } = ChangePasswordRequest.shape;
const ChangePasswordForm = z
  .object({ old_password, new_password, confirm_password: z.string().min(1, messages.confirmRequired) })
  .refine((form) => form.new_password === form.confirm_password, {
    path: ['confirm_password'],
    message: messages.newPasswordsDiffer,
    when: whenBothFilled('new_password', 'confirm_password'),
  });
type ChangePasswordInput = z.input<typeof ChangePasswordForm>;
type ChangePasswordOutput = z.output<typeof ChangePasswordForm>;

const empty: ChangePasswordInput = { old_password: '', new_password: '', confirm_password: '' };

export function ChangePasswordSection() {
  const changePassword = useChangePassword();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<ChangePasswordInput, unknown, ChangePasswordOutput>({ resolver: zodResolver(ChangePasswordForm), defaultValues: empty });

  const onSubmit = handleSubmit(({ old_password, new_password }) =>
    changePassword.mutate(
      { old_password, new_password },
      {
        onSuccess: () => {
          notifySuccess('Password changed successfully!');
          reset(empty);
        },
        onError: (error) => {
          applyServerErrors(error, setError, { old_password: 'old_password', new_password: 'new_password' });
          notifyFailure('Failed to change password', error);
        },
      },
    ),
  );

  return (
    <SettingsSection title="Change Password" description="Use at least 8 characters with uppercase, lowercase and a number.">
      <form noValidate onSubmit={onSubmit} className="space-y-5">
        <PasswordField
          label="Current password"
          autoComplete="current-password"
          error={errors.old_password?.message}
          {...register('old_password')}
        />
        <PasswordField
          label="New password"
          autoComplete="new-password"
          error={errors.new_password?.message}
          {...register('new_password')}
        />
        <PasswordField
          label="Confirm new password"
          autoComplete="new-password"
          error={errors.confirm_password?.message}
          {...register('confirm_password')}
        />
        <div className="flex justify-end">
          <Button type="submit" disabled={changePassword.isPending}>
            {changePassword.isPending && <Spinner />}
            {changePassword.isPending ? 'Updating…' : 'Update Password'}
          </Button>
        </div>
      </form>
    </SettingsSection>
  );
}
