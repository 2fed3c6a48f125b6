import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../../../shared/api/api-error';
import { applyServerErrors } from '../../../shared/forms/apply-server-errors';
import { lazyZodResolver } from '../../../shared/forms/lazy-zod-resolver';
import { notifyError, notifySuccess } from '../../../shared/toast/notify';
import { Button } from '../../../shared/ui/button';
import { CheckboxField } from '../../../shared/ui/checkbox-field';
import { Spinner } from '../../../shared/ui/spinner';
import { PasswordField, TextField } from '../../../shared/ui/text-field';
import { useRegister } from '../api/register';
import { AuthLayout, textLinkClasses } from './auth-layout';
import type { RegisterInput, RegisterOutput } from './register-form.schema';
import { GoogleButton, OrDivider } from './google-button';

const resolver = lazyZodResolver(() => import('./register-form.schema').then((m) => m.RegisterForm));

const serverFields = { email: 'email', username: 'username', password: 'password', password_confirm: 'confirmPassword' } as const;

/** /register (spec section 2): creates the account, then opens the dashboard. */
export function RegisterPage() {
  const registerAccount = useRegister();
  const navigate = useNavigate();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<RegisterInput, unknown, RegisterOutput>({
    resolver,
    defaultValues: { email: '', username: '', password: '', confirmPassword: '', terms: false },
  });

  const onSubmit = handleSubmit((form) =>
    registerAccount.mutate(
      { email: form.email, username: form.username, password: form.password, password_confirm: form.confirmPassword },
      {
        onSuccess: () => {
          notifySuccess('Registration successful!');
          void navigate('/dashboard', { replace: true });
        },
        onError: (error) => {
          applyServerErrors(error, setError, serverFields);
          notifyError(errorMessage(error, 'Registration failed'), error);
        },
      },
    ),
  );

  return (
    <AuthLayout
      title="Create your account"
      description="Start free. No credit card required."
      footer={
        <>
          Already have an account?{' '}
          <Link to="/login" className={textLinkClasses}>
            Sign in
          </Link>
        </>
      }
    >
      <GoogleButton />
      <OrDivider />
      <form noValidate onSubmit={onSubmit} onFocus={resolver.preload} className="space-y-5">
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          placeholder="you@company.com"
          error={errors.email?.message}
          {...register('email')}
        />
        <TextField
          label="Username"
          autoComplete="username"
          placeholder="jane_doe"
          error={errors.username?.message}
          {...register('username')}
        />
        <PasswordField
          label="Password"
          autoComplete="new-password"
          hint="At least 8 characters with uppercase, lowercase and a number."
          error={errors.password?.message}
          {...register('password')}
        />
        <PasswordField
          label="Confirm password"
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          {...register('confirmPassword')}
        />
        <CheckboxField
          error={errors.terms?.message}
          label={
            <>
              I agree to the{' '}
              <Link to="/terms" className={textLinkClasses}>
                Terms of Service
              </Link>{' '}
              and{' '}
              <Link to="/privacy" className={textLinkClasses}>
                Privacy Policy
              </Link>
            </>
          }
          {...register('terms')}
        />
        <Button type="submit" fullWidth disabled={registerAccount.isPending}>
          {registerAccount.isPending && <Spinner />}
          {registerAccount.isPending ? 'Creating account…' : 'Create Account'}
        </Button>
      </form>
    </AuthLayout>
  );
}
