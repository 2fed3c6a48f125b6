import { ArrowLeft } from 'lucide-react';
import { useEffect } from 'react';
import { LoadFailureScreen } from '../../../shared/errors/load-failure-screen';
import { formatDay } from '../../../shared/format/account-format';
import { formatMoney } from '../../../shared/format/billing-format';
import { notifyFailure } from '../../../shared/toast/notify';
import { LinkButton } from '../../../shared/ui/button';
import { PageSpinner } from '../../../shared/ui/spinner';
import { useSubscription } from '../api/get-subscription';
import { useSubscriptionHistory } from '../api/get-subscription-history';
import { useCheckoutReturn } from '../hooks/use-checkout-return';
import { AvailablePlans } from './available-plans';
import { RegionCard } from '../../../shared/ui/region-card';
import { CancelSubscriptionSection } from './cancel-subscription-section';
import { CurrentPlanCard } from './current-plan-card';
import { BillingDetailsForm } from './billing-details-form';
import { InvoiceList } from './invoice-list';
import { PaymentHistory } from './payment-history';
import { canCancel } from './subscription-status';

const LOAD_FAILED = 'Failed to load billing information';

/** /billing: Billing and Plans (spec section 2). */
export function BillingPage() {
  const verifying = useCheckoutReturn();
  const subscription = useSubscription();
  const history = useSubscriptionHistory();
  const loadError = subscription.error ?? history.error;

  useEffect(() => {
    if (loadError) notifyFailure(LOAD_FAILED, loadError);
  }, [loadError]);

  const retry = () => Promise.all([subscription.refetch(), history.refetch()]);

  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6 lg:px-8">
      <header className="mb-8 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight text-slate-900 dark:text-white">Billing and Plans</h1>
          <p className="mt-2 text-slate-600 dark:text-slate-400">Your plan, your payments, and how to change them.</p>
        </div>
        <LinkButton to="/profile" variant="secondary">
          <ArrowLeft className="size-4" aria-hidden /> Back to Profile
        </LinkButton>
      </header>

      {verifying && (
        <p role="status" className="mb-6 text-sm text-slate-600 dark:text-slate-400">
          Confirming your payment…
        </p>
      )}
      {loadError && <LoadFailureScreen error={loadError} onRetry={retry} retrying={subscription.isFetching || history.isFetching} />}
      {!loadError && (!subscription.data || !history.data) && <PageSpinner />}
      {subscription.data && history.data && (
        <div className="grid gap-8 lg:grid-cols-3">
          <div className="space-y-8 lg:col-span-2">
            <CurrentPlanCard subscription={subscription.data} />
            <AvailablePlans currentPlanId={subscription.data.plan_id} billingCycle={subscription.data.billing_cycle ?? 'monthly'} />
            <PaymentHistory payments={history.data.payments} />
            <InvoiceList expected={history.data.payments.filter((p) => p.status === 'completed' || p.status === 'refunded').length} />
          </div>
          <div className="space-y-8">
            <RegionCard title="Next Billing">
              {subscription.data.next_billing_date && !subscription.data.cancel_at_period_end ? (
                <>
                  <p className="text-xl font-semibold text-slate-900 dark:text-white">{formatDay(subscription.data.next_billing_date)}</p>
                  <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{formatMoney(subscription.data.price)} will be charged.</p>
                </>
              ) : (
                <p className="text-sm text-slate-600 dark:text-slate-400">No upcoming payment.</p>
              )}
            </RegionCard>
            {canCancel(subscription.data) && <CancelSubscriptionSection subscription={subscription.data} />}
            <BillingDetailsForm />
          </div>
        </div>
      )}
    </div>
  );
}
