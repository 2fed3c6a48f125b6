import { FlaskConical } from 'lucide-react';
import { useNavigate, useParams } from 'react-router';
import { LoadFailureScreen } from '../../../shared/errors/load-failure-screen';
import { formatMoney } from '../../../shared/format/billing-format';
import { notifyFailure } from '../../../shared/toast/notify';
import { Button, LinkButton } from '../../../shared/ui/button';
import { Card } from '../../../shared/ui/card';
import { PageSpinner, Spinner } from '../../../shared/ui/spinner';
import { useCancelSimulatedCheckout } from '../api/cancel-simulated-checkout';
import { useCompleteSimulatedCheckout } from '../api/complete-simulated-checkout';
import { useSimulatedCheckout } from '../api/get-simulated-checkout';

/**
 * /checkout/simulated/:sessionId: the api's stand-in for Stripe when no key is configured.
 * It must never pass for a real payment page, so it says so first.
 */
export function SimulatedCheckoutPage() {
  const { sessionId = '' } = useParams();
  const navigate = useNavigate();
  const checkout = useSimulatedCheckout(sessionId);
  const complete = useCompleteSimulatedCheckout();
  const cancel = useCancelSimulatedCheckout();
  const busy = complete.isPending || cancel.isPending;

  const pay = () =>
    complete.mutate(sessionId, {
      onSuccess: () => void navigate(`/billing?${new URLSearchParams({ checkout: 'success', session_id: sessionId })}`),
      onError: (error) => notifyFailure('Failed to subscribe to plan', error),
    });
  const abandon = () =>
    cancel.mutate(sessionId, {
      onSuccess: () => void navigate('/pricing'),
      onError: (error) => notifyFailure('Could not cancel the checkout', error),
    });

  const session = checkout.data;
  return (
    <div className="mx-auto max-w-lg px-4 py-16 sm:px-6">
      <Card className="p-8">
        <p className="flex items-center gap-2 rounded-lg bg-amber-50 p-3 text-sm font-medium text-amber-900 dark:bg-amber-950/40 dark:text-amber-200">
          <FlaskConical className="size-4 shrink-0" aria-hidden />
          Simulated checkout — no real payment is taken
        </p>
        <h1 className="mt-6 text-2xl font-bold tracking-tight text-slate-900 dark:text-white">Simulated checkout</h1>
        {checkout.isPending && <PageSpinner label="Loading checkout…" />}
        {checkout.isError && <LoadFailureScreen error={checkout.error} onRetry={checkout.refetch} retrying={checkout.isFetching} />}
        {session && (
          <>
            <dl className="mt-6 divide-y divide-slate-100 text-sm dark:divide-slate-800">
              {[
                { label: 'Plan', value: session.plan_name },
                { label: 'Billing cycle', value: session.billing_cycle === 'yearly' ? 'Yearly' : 'Monthly' },
                { label: 'Amount', value: formatMoney(session.amount) },
              ].map((row) => (
                <div key={row.label} className="flex justify-between py-3">
                  <dt className="text-slate-600 dark:text-slate-400">{row.label}</dt>
                  <dd className="font-medium text-slate-900 dark:text-white">{row.value}</dd>
                </div>
              ))}
            </dl>
            {session.status === 'open' ? (
              <div className="mt-8 flex flex-col gap-3">
                <Button onClick={pay} disabled={busy} fullWidth>
                  {complete.isPending && <Spinner />}
                  Pay {formatMoney(session.amount)} (simulated)
                </Button>
                <Button variant="secondary" onClick={abandon} disabled={busy} fullWidth>
                  Cancel
                </Button>
              </div>
            ) : (
              <div role="status" className="mt-8 text-sm text-slate-600 dark:text-slate-400">
                <p>{session.status === 'complete' ? 'This checkout is already paid.' : 'This checkout has expired.'}</p>
                <LinkButton to={session.status === 'complete' ? '/billing' : '/pricing'} variant="secondary" className="mt-4">
                  {session.status === 'complete' ? 'Go to Billing' : 'Back to Pricing'}
                </LinkButton>
              </div>
            )}
          </>
        )}
      </Card>
    </div>
  );
}
