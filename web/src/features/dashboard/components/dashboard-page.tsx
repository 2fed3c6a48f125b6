import type { User } from '@meshwork/contracts';
import { useEffect, useState } from 'react';
import { LoadFailureScreen } from '../../../shared/errors/load-failure-screen';
import { useSession } from '../../../shared/session/use-session';
import { notifyFailure } from '../../../shared/toast/notify';
import { PageSpinner } from '../../../shared/ui/spinner';
import { useDashboard } from '../api/get-dashboard';
import { useDownloadHistory } from '../api/get-download-history';
import { useUsageStats } from '../api/get-usage-stats';
import { AvailableModels } from './available-models';
import { DesktopAppPanel } from './desktop-download-panel';
import { UsageCard } from './usage-card';
import { Onboarding } from './onboarding/onboarding';
import { shouldShowOnboarding } from './onboarding/onboarding-steps';
import { QuickActions } from './quick-actions';
import { SummaryCards } from './summary-cards';

const LOAD_FAILED = 'Failed to load your account information.';

function greetingName(user: User): string {
  return user.first_name.trim() || user.username.trim() || user.email;
}

/**
 * The page's heading. A new account (it has not been through the welcome tour yet) is welcomed,
 * not welcomed back; which it is, is settled by the dashboard's first answer and kept while the
 * page stays open, so finishing the tour does not change the greeting under the reader's eyes.
 */
function Greeting({ user, firstVisit }: { user: User; firstVisit: boolean | null }) {
  const name = greetingName(user);
  return (
    <h1 className="text-3xl font-bold tracking-tight text-slate-900 dark:text-white">
      {firstVisit === null ? `Welcome, ${name}!` : firstVisit ? `Welcome to Meshwork, ${name}!` : `Welcome back, ${name}!`}
    </h1>
  );
}

/** Whether this visit is the account's first, once the dashboard has answered (null until then). */
function useFirstVisit(onboardingCompleted: boolean | undefined): boolean | null {
  const [firstVisit, setFirstVisit] = useState<boolean | null>(null);
  if (firstVisit === null && onboardingCompleted !== undefined) setFirstVisit(!onboardingCompleted);
  return firstVisit;
}

/** The page of the plan at a glance: cards, desktop app, models, analytics and actions. */
function DashboardContent() {
  const dashboard = useDashboard();
  const usage = useUsageStats();
  const history = useDownloadHistory();

  useEffect(() => {
    if (dashboard.isError) notifyFailure(LOAD_FAILED, dashboard.error);
  }, [dashboard.isError, dashboard.error]);

  if (dashboard.isPending) return <PageSpinner />;
  if (dashboard.isError) return <LoadFailureScreen error={dashboard.error} onRetry={dashboard.refetch} retrying={dashboard.isFetching} />;

  const { plan_info: planInfo, subscription, preferences } = dashboard.data;
  return (
    <>
      <p className="mt-2 text-slate-600 dark:text-slate-400">
        You are on the <strong className="text-slate-900 dark:text-white">{planInfo.plan_name}</strong> plan.
      </p>
      <div className="mt-8">
        <SummaryCards planInfo={planInfo} subscription={subscription} usage={usage.data} />
      </div>
      <div className="mt-8 grid gap-8 lg:grid-cols-3">
        <div className="space-y-8 lg:col-span-2">
          <DesktopAppPanel planInfo={planInfo} downloads={history.data?.downloads} />
          <AvailableModels models={planInfo.available_models} />
        </div>
        <div className="space-y-8">
          <UsageCard usage={usage.data} history={history.data} historyFailed={history.isError} />
          <QuickActions />
        </div>
      </div>
      {shouldShowOnboarding(preferences) && <Onboarding planInfo={planInfo} />}
    </>
  );
}

/** /dashboard (spec section 2). The greeting's name comes from the session, so it shows before the dashboard call answers. */
export function DashboardPage() {
  const session = useSession();
  const firstVisit = useFirstVisit(useDashboard().data?.preferences.onboarding_completed);
  if (session.status !== 'authenticated') return null; // the route guard shows something else meanwhile
  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6 lg:px-8">
      <Greeting user={session.user} firstVisit={firstVisit} />
      <DashboardContent />
    </div>
  );
}
