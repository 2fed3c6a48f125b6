import type { WebhookEndpoint, WebhookEndpointCreate } from '@meshwork/contracts';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ApiError } from '../../../shared/api/api-error';
import { applyServerErrors } from '../../../shared/forms/apply-server-errors';
import { lazyZodResolver } from '../../../shared/forms/lazy-zod-resolver';
import { Button } from '../../../shared/ui/button';
import { CheckboxField } from '../../../shared/ui/checkbox-field';
import { Dialog } from '../../../shared/ui/dialog';
import { PageSpinner, Spinner } from '../../../shared/ui/spinner';
import { TextField } from '../../../shared/ui/text-field';
import { useEventTypes } from '../api/get-event-types';

type EndpointForm = z.input<typeof WebhookEndpointCreate>;

/** The api's own rules for an endpoint (an http(s) URL without credentials, known event types, at least one). */
const resolver = lazyZodResolver(() => import('@meshwork/contracts').then(({ WebhookEndpointCreate }) => WebhookEndpointCreate));

/**
 * Add or edit an endpoint: its URL, a description, and the event types it receives, checked from
 * the api's list. `onSave` sends the request; its errors come back under the fields they name.
 */
export function EndpointFormDialog({
  title,
  submitLabel,
  endpoint,
  pending,
  error,
  onSave,
  onClose,
}: {
  title: string;
  submitLabel: string;
  endpoint?: WebhookEndpoint;
  pending: boolean;
  error: Error | null;
  onSave: (input: z.output<typeof WebhookEndpointCreate>, setServerErrors: (error: unknown) => void) => void;
  onClose: () => void;
}) {
  const eventTypes = useEventTypes();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<EndpointForm, unknown, z.output<typeof WebhookEndpointCreate>>({
    resolver,
    defaultValues: {
      url: endpoint?.url ?? '',
      description: endpoint?.description ?? '',
      event_types: (endpoint?.event_types ?? []) as EndpointForm['event_types'],
    },
  });

  const onSubmit = handleSubmit((input) =>
    onSave(input, (cause) => applyServerErrors(cause, setError, { url: 'url', description: 'description', event_types: 'event_types' })),
  );
  // A refusal not tied to a field (the plan, a limit) shows above the form.
  const refusal = error && !(error instanceof ApiError && Object.keys(error.fieldErrors).length > 0) ? error.message : null;
  const eventsError = errors.event_types?.message;

  return (
    <Dialog title={title} onClose={onClose} dismissible={!pending} className="max-w-2xl">
      <form noValidate onSubmit={onSubmit} onFocus={resolver.preload} className="space-y-5">
        {refusal && (
          <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950/40 dark:text-red-200">
            {refusal}
          </p>
        )}
        <TextField
          label="Endpoint URL"
          type="url"
          autoFocus
          placeholder="https://example.com/meshwork/webhooks"
          error={errors.url?.message}
          {...register('url')}
        />
        <TextField
          label="Description"
          hint="Optional: what receives these events."
          maxLength={500}
          error={errors.description?.message}
          {...register('description')}
        />
        <fieldset aria-describedby={eventsError ? 'webhook-events-error' : undefined}>
          <legend className="mb-2 text-sm font-medium text-slate-700 dark:text-slate-200">Events to send</legend>
          {eventTypes.isPending && <PageSpinner label="Loading event types…" />}
          {eventTypes.isError && (
            <p role="alert" className="text-sm text-red-600 dark:text-red-400">
              Could not load the event types.{' '}
              <button type="button" className="font-medium underline" onClick={() => void eventTypes.refetch()}>
                Try again
              </button>
            </p>
          )}
          {eventTypes.data && (
            <div className="grid max-h-72 gap-3 overflow-y-auto sm:grid-cols-2">
              {eventTypes.data.event_types.map((eventType) => (
                <CheckboxField
                  key={eventType.type}
                  value={eventType.type}
                  label={
                    <>
                      <span className="font-mono text-slate-900 dark:text-white">{eventType.type}</span>
                      <span className="block text-xs text-slate-500 dark:text-slate-400">{eventType.description}</span>
                    </>
                  }
                  {...register('event_types')}
                />
              ))}
            </div>
          )}
          {eventsError && (
            <p id="webhook-events-error" className="mt-1.5 text-sm text-red-600 dark:text-red-400">
              {eventsError}
            </p>
          )}
        </fieldset>
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" disabled={pending || !eventTypes.data}>
            {pending && <Spinner />}
            {submitLabel}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
