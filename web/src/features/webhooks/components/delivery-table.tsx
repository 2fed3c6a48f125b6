import { RotateCcw } from 'lucide-react';
import { Button } from '../../../shared/ui/button';
import { Spinner } from '../../../shared/ui/spinner';
import type { WebhookDelivery } from '@meshwork/contracts';
import { DeliveryStatusBadge } from './delivery-status-badge';
import { formatLatency, formatMoment, responseSummary } from './webhook-format';

const cell = 'px-4 py-3 text-left align-middle';

/** One page of the log, newest first: each delivery's outcome, with its details and a resend. */
export function DeliveryTable({
  deliveries,
  resendingId,
  onOpen,
  onResend,
}: {
  deliveries: WebhookDelivery[];
  resendingId: string | null;
  onOpen: (delivery: WebhookDelivery) => void;
  onResend: (delivery: WebhookDelivery) => void;
}) {
  return (
    <div className="overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <table className="w-full text-sm">
        <caption className="sr-only">Deliveries, newest first</caption>
        <thead className="border-b border-slate-200 text-xs tracking-wide text-slate-500 uppercase dark:border-slate-800 dark:text-slate-400">
          <tr>
            <th scope="col" className={cell}>
              Status
            </th>
            <th scope="col" className={cell}>
              Event
            </th>
            <th scope="col" className={cell}>
              Attempts
            </th>
            <th scope="col" className={cell}>
              Response
            </th>
            <th scope="col" className={cell}>
              Latency
            </th>
            <th scope="col" className={cell}>
              Time
            </th>
            <th scope="col" className={cell}>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {deliveries.map((delivery) => (
            <tr key={delivery.id} data-delivery-id={delivery.id}>
              <td className={cell}>
                <DeliveryStatusBadge status={delivery.status} />
              </td>
              <td className={`${cell} font-mono text-xs`}>{delivery.event_type}</td>
              <td className={cell}>{delivery.attempts}</td>
              <td className={`${cell} max-w-56 truncate`} title={responseSummary(delivery)}>
                {responseSummary(delivery)}
              </td>
              <td className={cell}>{formatLatency(delivery.latency_ms)}</td>
              <td className={`${cell} whitespace-nowrap`}>
                <time dateTime={delivery.last_attempt_at ?? delivery.created_at}>
                  {formatMoment(delivery.last_attempt_at ?? delivery.created_at)}
                </time>
              </td>
              <td className={`${cell} whitespace-nowrap text-right`}>
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => onOpen(delivery)}
                  aria-label={`Details of ${delivery.event_type} at ${formatMoment(delivery.created_at)}`}
                >
                  Details
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => onResend(delivery)}
                  disabled={resendingId !== null}
                  aria-label={`Resend ${delivery.event_type} at ${formatMoment(delivery.created_at)}`}
                >
                  {resendingId === delivery.id ? <Spinner /> : <RotateCcw className="size-4" aria-hidden />} Resend
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
