import { useLocation } from 'react-router';
import { usePlanInfo } from '../../../shared/billing/api/get-plan-info';
import { useSession } from '../../../shared/session/use-session';
import { Button, LinkButton } from '../../../shared/ui/button';
import { RegionCard } from '../../../shared/ui/region-card';
import { Spinner } from '../../../shared/ui/spinner';
import { useDownloadHistory } from '../../dashboard/api/get-download-history';
import { DesktopAppPanel } from '../../dashboard/components/desktop-download-panel';

const TITLE = 'Get the Desktop App';

/** The installer needs an account: a visitor is offered one, or a sign-in that comes back here. */
function VisitorCallToAction() {
  const { pathname, search, hash } = useLocation();
  return (
    <RegionCard title={TITLE}>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Create a free account to download the app for Windows or Linux and the models your plan includes. Already have an account? Sign in
        and you will come straight back here.
      </p>
      <div className="mt-6 flex flex-wrap gap-3">
        <LinkButton to="/register">Create Free Account</LinkButton>
        {/* The same remembered origin the route guard leaves: the login page returns to it. */}
        <LinkButton to="/login" state={{ from: { pathname, search, hash } }} variant="secondary">
          Sign In
        </LinkButton>
      </div>
    </RegionCard>
  );
}

/** The dashboard's desktop panel: the download when the plan includes it, else the way to upgrade (the steps are beside it, in the guide). */
function SignedInDownload() {
  const planInfo = usePlanInfo({ enabled: true });
  const history = useDownloadHistory();
  if (planInfo.isPending)
    return (
      <RegionCard title={TITLE}>
        <Spinner className="size-5" />
      </RegionCard>
    );
  if (planInfo.isError)
    return (
      <RegionCard title={TITLE}>
        <p className="text-sm text-slate-600 dark:text-slate-400">Your plan could not be loaded.</p>
        <Button variant="secondary" className="mt-4" onClick={() => void planInfo.refetch()} disabled={planInfo.isFetching}>
          Try Again
        </Button>
      </RegionCard>
    );
  return <DesktopAppPanel planInfo={planInfo.data} downloads={history.data?.downloads} installSteps={false} />;
}

/** What the page offers depends on who is looking. */
export function GetTheApp() {
  const session = useSession();
  if (session.status === 'authenticated') return <SignedInDownload />;
  if (session.status === 'anonymous') return <VisitorCallToAction />;
  return (
    <RegionCard title={TITLE}>
      <Spinner className="size-5" />
    </RegionCard>
  );
}
