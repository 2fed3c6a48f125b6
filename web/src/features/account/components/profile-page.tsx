import { useEffect } from 'react';
import { LoadFailureScreen } from '../../../shared/errors/load-failure-screen';
import { useProfile } from '../../../shared/session/api/get-profile';
import { notifyFailure } from '../../../shared/toast/notify';
import { PageSpinner } from '../../../shared/ui/spinner';
import { AccountSummary } from './account-summary';
import { ChangePasswordSection } from './change-password-form';
import { ProfileFormSection } from './profile-form';

const LOAD_FAILED = 'Failed to load your account information.';

/** /profile: Account Settings (spec section 2). */
export function ProfilePage() {
  const { data: user, isError, error, refetch, isFetching } = useProfile();

  // Once per failed load: each failure brings a new error object.
  useEffect(() => {
    if (isError) notifyFailure(LOAD_FAILED, error);
  }, [isError, error]);

  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6 lg:px-8">
      <header className="mb-8">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 dark:text-white">Account Settings</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-400">Manage your profile, password and plan.</p>
      </header>
      {!user && isError && <LoadFailureScreen error={error} onRetry={refetch} retrying={isFetching} />}
      {!user && !isError && <PageSpinner />}
      {user && (
        <div className="grid gap-8 lg:grid-cols-3">
          <div className="space-y-8 lg:col-span-2">
            <ProfileFormSection user={user} />
            <ChangePasswordSection />
          </div>
          <div>
            <AccountSummary user={user} />
          </div>
        </div>
      )}
    </div>
  );
}
