import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { errorMessage } from '../../../shared/api/api-error';
import { applyServerErrors } from '../../../shared/forms/apply-server-errors';
import { lazyZodResolver } from '../../../shared/forms/lazy-zod-resolver';
import { notifyError, notifySuccess } from '../../../shared/toast/notify';
import { Button } from '../../../shared/ui/button';
import { PasswordField, TextField } from '../../../shared/ui/text-field';
import { Spinner } from '../../../shared/ui/spinner';
import { useLogin } from '../api/login';
import { useReturnToOrigin } from '../hooks/use-return-to-origin';
import { AuthLayout, textLinkClasses } from './auth-layout';
import { GoogleButton, OrDivider } from './google-button';
import type { LoginInput, LoginOutput } from './login-form.schema';

const resolver = lazyZodResolver(() => import('./login-form.schema').then((m) => m.LoginForm));

/** /login (spec section 2). */
export function LoginPage() {
  const login = useLogin();
  const returnToOrigin = useReturnToOrigin();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<LoginInput, unknown, LoginOutput>({ resolver, defaultValues: { email: '', password: '' } });

  const onSubmit = handleSubmit((credentials) =>
    login.mutate(credentials, {
      onSuccess: () => {
        notifySuccess('Login successful!');
        returnToOrigin();
      },
      onError: (error) => {
        applyServerErrors(error, setError, { email: 'email', password: 'password' });
        notifyError(errorMessage(error, 'Login failed'), error);
      },
    }),
  );

  return (
    <AuthLayout
      title="Welcome back"
      description="Sign in to manage your plan, devices and models."
      footer={
        <>
          Don&apos;t have an account?{' '}
          <Link to="/register" className={textLinkClasses}>
            Sign up
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
        <PasswordField
          label="Password"
          autoComplete="current-password"
          error={errors.password?.message}
          labelAside={
            <Link to="/forgot-password" className={`text-sm ${textLinkClasses}`}>
              Forgot password?
            </Link>
          }
          {...register('password')}
        />
        <Button type="submit" fullWidth disabled={login.isPending}>
          {login.isPending && <Spinner />}
          {login.isPending ? 'Signing in…' : 'Sign In'}
        </Button>
      </form>
    </AuthLayout>
  );
}
