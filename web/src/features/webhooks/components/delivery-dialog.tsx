import { RotateCcw } from 'lucide-react';
import { Button } from '../../../shared/ui/button';
import { Dialog } from '../../../shared/ui/dialog';
import { PageSpinner, Spinner } from '../../../shared/ui/spinner';
import { useDelivery } from '../api/get-delivery';
import type { WebhookDelivery } from '@meshwork/contracts';
import { DeliveryStatusBadge } from './delivery-status-badge';
import { formatLatency, formatMoment, prettyJson, responseSummary } from './webhook-format';

function Excerpt({ label, text }: { label: string; text: string }) {
  return (
    <figure className="mt-4">
      <figcaption className="mb-1.5 text-sm font-medium text-slate-700 dark:text-slate-200">{label}</figcaption>
      <pre tabIndex={0} aria-label={label} className="max-h-72 overflow-auto rounded-xl bg-slate-950 p-4 text-xs leading-5 text-slate-100">
        <code>{text}</code>
      </pre>
    </figure>
  );
}

/** One delivery in full: the request body as sent, the start of the receiver's answer, and a resend. */
export function DeliveryDialog({
  delivery,
  resending,
  onResend,
  onClose,
}: {
  delivery: WebhookDelivery;
  resending: boolean;
  onResend: () => void;
  onClose: () => void;
}) {
  const detail = useDelivery(delivery.id);
  // The list's row is shown at once; the detail adds the bodies when it comes.
  const shown = detail.data ?? delivery;
  const facts: [string, string][] = [
    ['Event id', shown.event_id],
    ['Attempts', String(shown.attempts)],
    ['Response', responseSummary(shown)],
    ['Latency', formatLatency(shown.latency_ms)],
    ['Created', formatMoment(shown.created_at)],
    ['Last attempt', formatMoment(shown.last_attempt_at)],
    ['Next attempt', formatMoment(shown.next_attempt_at)],
  ];
  return (
    <Dialog title="Delivery Details" onClose={onClose} className="max-w-3xl">
      <div className="flex flex-wrap items-center gap-3">
        <DeliveryStatusBadge status={shown.status} />
        <span className="font-mono text-sm text-slate-800 dark:text-slate-200">{shown.event_type}</span>
      </div>
      <dl className="mt-4 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[9rem_1fr]">
        {facts.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-slate-500 dark:text-slate-400">{label}</dt>
            <dd className="font-mono break-all text-slate-900 dark:text-slate-100">{value}</dd>
          </div>
        ))}
      </dl>
      {detail.isPending && <PageSpinner label="Loading the request and response…" />}
      {detail.isError && (
        <p role="alert" className="mt-4 text-sm text-red-600 dark:text-red-400">
          Could not load the request and response: {detail.error.message}
        </p>
      )}
      {detail.data && (
        <>
          <Excerpt label="Request body" text={prettyJson(detail.data.request_body)} />
          <Excerpt label="Response excerpt" text={detail.data.response_body_excerpt ?? 'No response body.'} />
        </>
      )}
      <div className="mt-6 flex justify-end gap-3">
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
        <Button onClick={onResend} disabled={resending}>
          {resending ? <Spinner /> : <RotateCcw className="size-4" aria-hidden />} Resend
        </Button>
      </div>
    </Dialog>
  );
}
