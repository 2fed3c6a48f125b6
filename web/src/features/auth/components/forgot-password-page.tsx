import type { PasswordResetRequest } from '@meshwork/contracts';
import { MailCheck } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { applyServerErrors } from '../../../shared/forms/apply-server-errors';
import { lazyZodResolver } from '../../../shared/forms/lazy-zod-resolver';
import { notifyFailure, notifySuccess } from '../../../shared/toast/notify';
import { Button, LinkButton } from '../../../shared/ui/button';
import { Spinner } from '../../../shared/ui/spinner';
import { TextField } from '../../../shared/ui/text-field';
import { useRequestPasswordReset } from '../api/request-password-reset';
import { AuthLayout, textLinkClasses } from './auth-layout';

type ForgotInput = z.input<typeof PasswordResetRequest>;
type ForgotOutput = z.output<typeof PasswordResetRequest>;

const resolver = lazyZodResolver(() => import('@meshwork/contracts').then(({ PasswordResetRequest }) => PasswordResetRequest));

/** /forgot-password (spec section 2): the form, then "Check Your Email". */
export function ForgotPasswordPage() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const requestReset = useRequestPasswordReset();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ForgotInput, unknown, ForgotOutput>({ resolver, defaultValues: { email: '' } });

  const onSubmit = handleSubmit((request) =>
    requestReset.mutate(request, {
      onSuccess: () => {
        notifySuccess('Password reset email sent!');
        setSentTo(request.email);
      },
      onError: (error) => {
        applyServerErrors(error, setError, { email: 'email' });
        notifyFailure('Failed to send reset email', error);
      },
    }),
  );

  if (sentTo !== null) {
    return (
      <AuthLayout
        title="Check Your Email"
        description={
          <>
            If an account exists for <strong className="text-slate-900 dark:text-white">{sentTo}</strong>, we&apos;ve sent a link to reset
            its password. The link expires soon, so use it shortly.
          </>
        }
      >
        <MailCheck className="mx-auto mb-6 size-12 text-brand-600 dark:text-brand-400" aria-hidden />
        <div className="space-y-3">
          <Button variant="secondary" fullWidth onClick={() => setSentTo(null)}>
            Try Different Email
          </Button>
          <LinkButton to="/login" fullWidth>
            Back to Sign In
          </LinkButton>
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Forgot your password?"
      description="Enter the email you signed up with and we'll send you a link to choose a new password."
      footer={
        <Link to="/login" className={textLinkClasses}>
          Back to Sign In
        </Link>
      }
    >
      <form noValidate onSubmit={onSubmit} onFocus={resolver.preload} className="space-y-5">
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          placeholder="you@company.com"
          error={errors.email?.message}
          {...register('email')}
        />
        <Button type="submit" fullWidth disabled={requestReset.isPending}>
          {requestReset.isPending && <Spinner />}
          {requestReset.isPending ? 'Sending…' : 'Send Reset Link'}
        </Button>
      </form>
    </AuthLayout>
  );
}
