import { Plus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { LoadFailureScreen } from '../../../shared/errors/load-failure-screen';
import { notifyFailure, notifySuccess } from '../../../shared/toast/notify';
import { Button } from '../../../shared/ui/button';
import { PageSpinner } from '../../../shared/ui/spinner';
import { useCreateEndpoint } from '../api/create-endpoint';
import { useDeleteEndpoint } from '../api/delete-endpoint';
import { isPlanWithoutWebhooks, useEndpoints } from '../api/get-endpoints';
import { useRollSecret } from '../api/roll-secret';
import { useUpdateEndpoint } from '../api/update-endpoint';
import type { WebhookEndpoint } from '@meshwork/contracts';
import { ConfirmDialog } from '../../../shared/ui/confirm-dialog';
import { EndpointCard, type EndpointAction } from './endpoint-card';
import { EndpointFormDialog } from './endpoint-form-dialog';
import { RollSecretDialog } from './roll-secret-dialog';
import { SecretDialog } from './secret-dialog';
import { WebhooksPageHeader } from './webhooks-page-header';
import { WebhooksUpgrade } from './webhooks-upgrade';

type Open =
  | { kind: 'add' }
  | { kind: 'edit' | 'roll' | 'delete'; endpoint: WebhookEndpoint }
  | { kind: 'secret'; title: string; secret: string; note?: string };

const LOAD_FAILED = 'Failed to load your webhook endpoints';

/** /settings/webhooks: the Enterprise customer's endpoints, and the explanation with the upgrade for other plans. */
export function WebhooksPage() {
  const endpoints = useEndpoints();
  const create = useCreateEndpoint();
  const update = useUpdateEndpoint();
  const remove = useDeleteEndpoint();
  const roll = useRollSecret();
  const [open, setOpen] = useState<Open | null>(null);
  const planless = isPlanWithoutWebhooks(endpoints.error);
  const loadError = planless ? null : endpoints.error;

  useEffect(() => {
    if (loadError) notifyFailure(LOAD_FAILED, loadError);
  }, [loadError]);

  const close = () => {
    for (const mutation of [create, update, remove, roll]) mutation.reset();
    setOpen(null);
  };

  const act = (endpoint: WebhookEndpoint, action: EndpointAction) => {
    if (action !== 'toggle') return setOpen({ kind: action, endpoint });
    update.mutate(
      { id: endpoint.id, enabled: !endpoint.enabled },
      {
        onSuccess: (saved) => notifySuccess(saved.enabled ? 'Endpoint enabled' : 'Endpoint disabled'),
        onError: (error) => notifyFailure('Failed to update the endpoint', error),
      },
    );
  };

  const list = endpoints.data?.results;
  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6 lg:px-8">
      <WebhooksPageHeader
        title="Webhooks"
        lead="Tell your own systems when something happens in your Meshwork account."
        action={
          list &&
          list.length > 0 && (
            <Button onClick={() => setOpen({ kind: 'add' })}>
              <Plus className="size-4" aria-hidden /> Add Endpoint
            </Button>
          )
        }
      />
      {planless && <WebhooksUpgrade reason={endpoints.error?.message ?? ''} />}
      {loadError && <LoadFailureScreen error={loadError} onRetry={endpoints.refetch} retrying={endpoints.isFetching} />}
      {!endpoints.error && !list && <PageSpinner />}
      {list && list.length === 0 && (
        <div className="rounded-2xl border border-dashed border-slate-300 p-10 text-center dark:border-slate-700">
          <h2 className="text-lg font-semibold text-slate-900 dark:text-white">No endpoints yet</h2>
          <p className="mx-auto mt-2 max-w-md text-sm text-slate-600 dark:text-slate-400">
            Add the URL of a receiver and choose the events it should hear about. Each request is signed so it can tell the request came
            from Meshwork.
          </p>
          <Button className="mt-6" onClick={() => setOpen({ kind: 'add' })}>
            <Plus className="size-4" aria-hidden /> Add Endpoint
          </Button>
        </div>
      )}
      {list && list.length > 0 && (
        <ul aria-label="Webhook endpoints" className="space-y-6">
          {list.map((endpoint) => (
            <EndpointCard
              key={endpoint.id}
              endpoint={endpoint}
              toggling={update.isPending && update.variables.id === endpoint.id && update.variables.enabled !== undefined}
              onAction={(action) => act(endpoint, action)}
            />
          ))}
        </ul>
      )}

      {open?.kind === 'add' && (
        <EndpointFormDialog
          title="Add Endpoint"
          submitLabel="Add Endpoint"
          pending={create.isPending}
          error={create.error}
          onClose={close}
          onSave={(input, setServerErrors) =>
            create.mutate(input, {
              onSuccess: ({ secret }) => setOpen({ kind: 'secret', title: 'Endpoint Added', secret }),
              onError: setServerErrors,
            })
          }
        />
      )}
      {open?.kind === 'edit' && (
        <EndpointFormDialog
          title="Edit Endpoint"
          submitLabel="Save"
          endpoint={open.endpoint}
          pending={update.isPending}
          error={update.error}
          onClose={close}
          onSave={(input, setServerErrors) =>
            update.mutate(
              { id: open.endpoint.id, ...input },
              {
                onSuccess: () => {
                  notifySuccess('Endpoint saved');
                  close();
                },
                onError: setServerErrors,
              },
            )
          }
        />
      )}
      {open?.kind === 'roll' && (
        <RollSecretDialog
          url={open.endpoint.url}
          pending={roll.isPending}
          error={roll.error}
          onClose={close}
          onRoll={(overlap_hours) =>
            roll.mutate(
              { id: open.endpoint.id, overlap_hours },
              {
                onSuccess: ({ secret, previous_expires_at }) =>
                  setOpen({
                    kind: 'secret',
                    title: 'New Signing Secret',
                    secret,
                    note:
                      overlap_hours > 0
                        ? `The old secret also signs until ${new Date(previous_expires_at).toLocaleString('en-US')}.`
                        : 'The old secret no longer signs.',
                  }),
              },
            )
          }
        />
      )}
      {open?.kind === 'delete' && (
        <ConfirmDialog
          title="Delete Endpoint"
          confirmLabel="Delete Endpoint"
          pending={remove.isPending}
          onClose={close}
          onConfirm={() =>
            remove.mutate(open.endpoint.id, {
              onSuccess: () => {
                notifySuccess('Endpoint deleted');
                close();
              },
              onError: (error) => notifyFailure('Failed to delete the endpoint', error),
            })
          }
        >
          Delete <span className="font-mono break-all">{open.endpoint.url}</span>? Nothing more is sent to it.
        </ConfirmDialog>
      )}
      {open?.kind === 'secret' && <SecretDialog title={open.title} secret={open.secret} note={open.note} onClose={close} />}
    </div>
  );
}
