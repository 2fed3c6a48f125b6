import { formatPlanName } from '../../../shared/format/account-format';
import { useSession } from '../../../shared/session/use-session';
import { LinkButton } from '../../../shared/ui/button';
import { Card } from '../../../shared/ui/card';

/** /billing placeholder: the current plan until Billing and Plans (spec section 2) is built. */
export function BillingPage() {
  const session = useSession();
  if (session.status !== 'authenticated') return null;
  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6 lg:px-8">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 dark:text-white">Billing and Plans</h1>
      <Card className="mt-8 p-6">
        <p className="text-sm text-slate-600 dark:text-slate-400">Current plan</p>
        <p className="mt-1 text-2xl font-semibold text-slate-900 dark:text-white">{formatPlanName(session.user.subscription_plan)}</p>
        <p className="mt-4 text-sm text-slate-600 dark:text-slate-400">Plan changes and payment history will appear here.</p>
      </Card>
      <div className="mt-6 flex gap-3">
        <LinkButton to="/pricing">See plans</LinkButton>
        <LinkButton to="/profile" variant="secondary">
          Back to Profile
        </LinkButton>
      </div>
    </div>
  );
}
