import { KeyRound, ListChecks, Pencil, Power, Trash2 } from 'lucide-react';
import { Button, LinkButton } from '../../../shared/ui/button';
import { Spinner } from '../../../shared/ui/spinner';
import type { WebhookEndpoint } from '@meshwork/contracts';
import { endpointState } from './webhook-format';

export type EndpointAction = 'edit' | 'toggle' | 'roll' | 'delete';

const stateClasses = {
  on: 'bg-green-100 text-green-800 dark:bg-green-950/60 dark:text-green-300',
  off: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300',
  auto: 'bg-red-100 text-red-800 dark:bg-red-950/60 dark:text-red-300',
};

/** One endpoint: where it sends, what, whether it is on (and why not), its secret's hint, and what can be done with it. */
export function EndpointCard({
  endpoint,
  toggling,
  onAction,
}: {
  endpoint: WebhookEndpoint;
  toggling: boolean;
  onAction: (action: EndpointAction) => void;
}) {
  const state = endpointState(endpoint);
  const look = endpoint.enabled ? stateClasses.on : endpoint.disabled_reason ? stateClasses.auto : stateClasses.off;
  const headingId = `endpoint-${endpoint.id}`;
  return (
    <li
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={headingId} className="font-mono text-base font-semibold break-all text-slate-900 dark:text-white">
            {endpoint.url}
          </h2>
          {endpoint.description && <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{endpoint.description}</p>}
        </div>
        <span className={`rounded-full px-2.5 py-0.5 text-xs font-medium ${look}`}>{state.label}</span>
      </div>
      {state.detail && (
        <p className="mt-3 rounded-lg bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950/40 dark:text-red-200">
          Turned off because {state.detail}. Once that is fixed, enable the endpoint again.
        </p>
      )}
      <dl className="mt-4 grid gap-3 text-sm sm:grid-cols-[8rem_1fr]">
        <dt className="text-slate-500 dark:text-slate-400">Events</dt>
        <dd>
          <ul aria-label={`Events sent to ${endpoint.url}`} className="flex flex-wrap gap-1.5">
            {endpoint.event_types.map((type) => (
              <li
                key={type}
                className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700 dark:bg-slate-800 dark:text-slate-300"
              >
                {type}
              </li>
            ))}
          </ul>
        </dd>
        <dt className="text-slate-500 dark:text-slate-400">Signing secret</dt>
        <dd className="font-mono text-slate-800 dark:text-slate-200">{endpoint.secret_hint}</dd>
      </dl>
      <div className="mt-5 flex flex-wrap gap-2">
        <LinkButton to={`/settings/webhooks/${encodeURIComponent(endpoint.id)}`} size="sm">
          <ListChecks className="size-4" aria-hidden /> Deliveries
        </LinkButton>
        <Button variant="secondary" size="sm" onClick={() => onAction('edit')}>
          <Pencil className="size-4" aria-hidden /> Edit
        </Button>
        <Button variant="secondary" size="sm" onClick={() => onAction('toggle')} disabled={toggling}>
          {toggling ? <Spinner /> : <Power className="size-4" aria-hidden />} {endpoint.enabled ? 'Disable' : 'Enable'}
        </Button>
        <Button variant="secondary" size="sm" onClick={() => onAction('roll')}>
          <KeyRound className="size-4" aria-hidden /> Roll Secret
        </Button>
        <Button variant="secondary" size="sm" onClick={() => onAction('delete')}>
          <Trash2 className="size-4" aria-hidden /> Delete
        </Button>
      </div>
    </li>
  );
}
