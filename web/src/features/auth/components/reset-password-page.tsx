import { messages } from '@meshwork/contracts';
import { CircleCheck, TriangleAlert } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { applyServerErrors } from '../../../shared/forms/apply-server-errors';
import { lazyZodResolver } from '../../../shared/forms/lazy-zod-resolver';
import { notifyFailure, notifySuccess } from '../../../shared/toast/notify';
import { Button, LinkButton } from '../../../shared/ui/button';
import { Spinner } from '../../../shared/ui/spinner';
import { PasswordField } from '../../../shared/ui/text-field';
import { useConfirmPasswordReset } from '../api/confirm-password-reset';
import { AuthLayout, textLinkClasses } from './auth-layout';
import type { ResetInput, ResetOutput } from './new-password-form.schema';

/** Spec section 9: how long "Password Reset Successful" shows before /login. */
export const RESET_REDIRECT_MS = 3000;

const resolver = lazyZodResolver(() => import('./new-password-form.schema').then((m) => m.NewPasswordForm));

/** /reset-password?token=… (spec section 2). */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const [succeeded, setSucceeded] = useState(false);

  if (!token) return <InvalidResetLink />;
  if (succeeded) return <ResetSucceeded />;
  return <NewPasswordFormCard token={token} onSuccess={() => setSucceeded(true)} />;
}

function InvalidResetLink() {
  return (
    <AuthLayout title="Invalid Reset Link" description={`${messages.resetTokenInvalid}: this link is incomplete or has expired.`}>
      <TriangleAlert className="mx-auto mb-6 size-12 text-amber-500" aria-hidden />
      <LinkButton to="/forgot-password" fullWidth>
        Request a new reset link
      </LinkButton>
    </AuthLayout>
  );
}

function ResetSucceeded() {
  const navigate = useNavigate();
  useEffect(() => {
    const timer = setTimeout(() => void navigate('/login', { replace: true }), RESET_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [navigate]);
  return (
    <AuthLayout title="Password Reset Successful" description="Your password has been changed. Taking you to sign in…">
      <CircleCheck className="mx-auto mb-6 size-12 text-emerald-500" aria-hidden />
      <LinkButton to="/login" replace fullWidth>
        Sign In Now
      </LinkButton>
    </AuthLayout>
  );
}

function NewPasswordFormCard({ token, onSuccess }: { token: string; onSuccess: () => void }) {
  const confirmReset = useConfirmPasswordReset();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ResetInput, unknown, ResetOutput>({
    resolver,
    defaultValues: { password: '', confirmPassword: '' },
  });

  const onSubmit = handleSubmit((form) =>
    confirmReset.mutate(
      { token, password: form.password, password_confirm: form.confirmPassword },
      {
        onSuccess: () => {
          notifySuccess('Password reset successful!');
          onSuccess();
        },
        onError: (error) => {
          applyServerErrors(error, setError, { password: 'password', password_confirm: 'confirmPassword' });
          notifyFailure('Password reset failed', error);
        },
      },
    ),
  );

  return (
    <AuthLayout
      title="Choose a new password"
      description="Use at least 8 characters with uppercase, lowercase and a number."
      footer={
        <Link to="/login" className={textLinkClasses}>
          Back to Sign In
        </Link>
      }
    >
      <form noValidate onSubmit={onSubmit} onFocus={resolver.preload} className="space-y-5">
        <PasswordField label="New password" autoComplete="new-password" error={errors.password?.message} {...register('password')} />
        <PasswordField
          label="Confirm new password"
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          {...register('confirmPassword')}
        />
        <Button type="submit" fullWidth disabled={confirmReset.isPending}>
          {confirmReset.isPending && <Spinner />}
          {confirmReset.isPending ? 'Resetting…' : 'Reset Password'}
        </Button>
      </form>
    </AuthLayout>
  );
}
