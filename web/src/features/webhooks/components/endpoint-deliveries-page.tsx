import { ArrowLeft, Send } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { LoadFailureScreen } from '../../../shared/errors/load-failure-screen';
import { notifyFailure, notifySuccess } from '../../../shared/toast/notify';
import { Button } from '../../../shared/ui/button';
import { PageSpinner, Spinner } from '../../../shared/ui/spinner';
import { useDeliveries } from '../api/get-deliveries';
import { isPlanWithoutWebhooks, useEndpoints } from '../api/get-endpoints';
import { useResendDelivery } from '../api/resend-delivery';
import { useSendTestEvent } from '../api/send-test-event';
import type { WebhookDelivery } from '@meshwork/contracts';
import { DeliveryDialog } from './delivery-dialog';
import { DeliveryPager } from './delivery-pager';
import { DeliveryTable } from './delivery-table';
import { endpointState } from './webhook-format';
import { WebhooksPageHeader } from './webhooks-page-header';
import { WebhooksUpgrade } from './webhooks-upgrade';

const backLink = (
  <Link
    to="/settings/webhooks"
    className="mb-4 inline-flex items-center gap-1.5 text-sm font-medium text-brand-700 hover:underline dark:text-brand-300"
  >
    <ArrowLeft className="size-4" aria-hidden /> All endpoints
  </Link>
);

/** The page number in the address (?page=2), so back and forward walk the log; anything odd is page 1. */
function usePage(): [number, (page: number) => void] {
  const [params, setParams] = useSearchParams();
  const raw = Number(params.get('page'));
  const page = Number.isInteger(raw) && raw >= 1 ? raw : 1;
  return [page, (next) => setParams(next === 1 ? {} : { page: String(next) })];
}

/** /settings/webhooks/:id: one endpoint's delivery log, its details, resends and a test event. */
export function EndpointDeliveriesPage() {
  const { id = '' } = useParams();
  const [page, setPage] = usePage();
  const endpoints = useEndpoints();
  const deliveries = useDeliveries(id, page);
  const sendTest = useSendTestEvent();
  const resend = useResendDelivery();
  const [opened, setOpened] = useState<WebhookDelivery | null>(null);
  const endpoint = endpoints.data?.results.find((e) => e.id === id);
  const planless = isPlanWithoutWebhooks(endpoints.error);
  const loadError = planless ? null : (endpoints.error ?? (endpoint ? deliveries.error : null));

  useEffect(() => {
    if (loadError) notifyFailure('Failed to load the delivery log', loadError);
  }, [loadError]);

  const doResend = (delivery: WebhookDelivery) =>
    resend.mutate(
      { deliveryId: delivery.id, endpointId: id },
      {
        onSuccess: () => {
          notifySuccess('Delivery resent');
          setOpened(null);
          setPage(1);
        },
        onError: (error) => notifyFailure('Failed to resend the delivery', error),
      },
    );
  const doTest = () =>
    sendTest.mutate(id, {
      onSuccess: () => {
        notifySuccess('Test event sent');
        setPage(1);
      },
      onError: (error) => notifyFailure('Failed to send the test event', error),
    });

  if (planless)
    return (
      <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6 lg:px-8">
        <WebhooksPageHeader title="Delivery Log" lead="Webhooks" before={backLink} />
        <WebhooksUpgrade reason={endpoints.error?.message ?? ''} />
      </div>
    );

  const state = endpoint ? endpointState(endpoint) : null;
  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6 lg:px-8">
      <WebhooksPageHeader
        title="Delivery Log"
        before={backLink}
        lead={endpoint ? `${endpoint.url} · ${state?.label ?? ''}` : 'Every request sent to this endpoint, newest first.'}
        action={
          endpoint && (
            <Button onClick={doTest} disabled={sendTest.isPending}>
              {sendTest.isPending ? <Spinner /> : <Send className="size-4" aria-hidden />} Send Test Event
            </Button>
          )
        }
      />
      {loadError && (
        <LoadFailureScreen
          error={loadError}
          onRetry={() => Promise.all([endpoints.refetch(), deliveries.refetch()])}
          retrying={endpoints.isFetching || deliveries.isFetching}
        />
      )}
      {!loadError && (!endpoints.data || (endpoint && !deliveries.data)) && <PageSpinner />}
      {endpoints.data && !endpoint && (
        <div role="alert" className="rounded-2xl border border-slate-200 p-10 text-center dark:border-slate-800">
          <h2 className="text-lg font-semibold text-slate-900 dark:text-white">Endpoint not found</h2>
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
            It may have been deleted. Your endpoints are listed on the Webhooks page.
          </p>
        </div>
      )}
      {endpoint && !endpoint.enabled && (
        <p role="status" className="mb-6 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950/40 dark:text-amber-200">
          This endpoint is disabled{state?.detail ? ` (${state.detail})` : ''}: no new events are sent to it. Enable it on the Webhooks
          page.
        </p>
      )}
      {endpoint && deliveries.data && deliveries.data.count === 0 && (
        <div className="rounded-2xl border border-dashed border-slate-300 p-10 text-center dark:border-slate-700">
          <h2 className="text-lg font-semibold text-slate-900 dark:text-white">No deliveries yet</h2>
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">Send a test event to see how your receiver answers.</p>
        </div>
      )}
      {endpoint && deliveries.data && deliveries.data.count > 0 && (
        <section aria-label="Deliveries" className="space-y-4">
          <DeliveryTable
            deliveries={deliveries.data.results}
            resendingId={resend.isPending ? resend.variables.deliveryId : null}
            onOpen={setOpened}
            onResend={doResend}
          />
          <DeliveryPager page={page} count={deliveries.data.count} onPage={setPage} />
        </section>
      )}
      {opened && (
        <DeliveryDialog delivery={opened} resending={resend.isPending} onResend={() => doResend(opened)} onClose={() => setOpened(null)} />
      )}
    </div>
  );
}
