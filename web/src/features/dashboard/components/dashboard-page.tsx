import type { User } from '@meshwork/contracts';
import { useEffect } from 'react';
import { LoadFailureScreen } from '../../../shared/errors/load-failure-screen';
import { useSession } from '../../../shared/session/use-session';
import { notifyFailure } from '../../../shared/toast/notify';
import { PageSpinner } from '../../../shared/ui/spinner';
import { useDashboard } from '../api/get-dashboard';
import { useDownloadHistory } from '../api/get-download-history';
import { useUsageStats } from '../api/get-usage-stats';
import { AvailableModels } from './available-models';
import { DesktopAppPanel } from './desktop-download-panel';
import { DownloadAnalytics } from './download-analytics';
import { Onboarding } from './onboarding/onboarding';
import { shouldShowOnboarding } from './onboarding/onboarding-steps';
import { QuickActions } from './quick-actions';
import { SummaryCards } from './summary-cards';

const LOAD_FAILED = 'Failed to load your account information.';

function greetingName(user: User): string {
  return user.first_name.trim() || user.username.trim() || user.email;
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

  const { plan_info: planInfo, preferences } = dashboard.data;
  return (
    <>
      <p className="mt-2 text-slate-600 dark:text-slate-400">
        You are on the <strong className="text-slate-900 dark:text-white">{planInfo.plan_name}</strong> plan.
      </p>
      <div className="mt-8">
        <SummaryCards planInfo={planInfo} usage={usage.data} />
      </div>
      <div className="mt-8 grid gap-8 lg:grid-cols-3">
        <div className="space-y-8 lg:col-span-2">
          <DesktopAppPanel planInfo={planInfo} downloads={history.data?.downloads} />
          <AvailableModels models={planInfo.available_models} />
        </div>
        <div className="space-y-8">
          <DownloadAnalytics usage={usage.data} history={history.data} historyFailed={history.isError} />
          <QuickActions />
        </div>
      </div>
      {shouldShowOnboarding(preferences) && <Onboarding planInfo={planInfo} />}
    </>
  );
}

/** /dashboard (spec section 2). The greeting comes from the session, so it shows before the dashboard call answers. */
export function DashboardPage() {
  const session = useSession();
  if (session.status !== 'authenticated') return null; // the route guard shows something else meanwhile
  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6 lg:px-8">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 dark:text-white">Welcome back, {greetingName(session.user)}!</h1>
      <DashboardContent />
    </div>
  );
}
