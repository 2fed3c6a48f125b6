import { CreateNetworkRequest, type AvailableModel } from '@meshwork/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { ApiError } from '../../../shared/api/api-error';
import { applyServerErrors } from '../../../shared/forms/apply-server-errors';
import { notifySuccess } from '../../../shared/toast/notify';
import { Button } from '../../../shared/ui/button';
import { Dialog } from '../../../shared/ui/dialog';
import { Spinner } from '../../../shared/ui/spinner';
import { TextField } from '../../../shared/ui/text-field';
import { useCreateNetwork } from '../api/create-network';

type CreateInput = z.input<typeof CreateNetworkRequest>;
type CreateOutput = z.output<typeof CreateNetworkRequest>;

/** A refusal by the plan (403 model not allowed, 409 limit reached) is fixed by upgrading. */
const isPlanRefusal = (error: unknown) => error instanceof ApiError && (error.status === 403 || error.status === 409);

/** Create a network: a name and one of the models the plan allows. The server has the last word on limits. */
export function CreateNetworkDialog({ models, onClose }: { models: AvailableModel[]; onClose: () => void }) {
  const create = useCreateNetwork();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<CreateInput, unknown, CreateOutput>({
    resolver: zodResolver(CreateNetworkRequest),
    defaultValues: { name: '', model_id: models[0]?.name ?? '' },
  });

  const onSubmit = handleSubmit((request) =>
    create.mutate(request, {
      onSuccess: (network) => {
        notifySuccess(`Network "${network.name}" created`);
        onClose();
      },
      onError: (error) => {
        applyServerErrors(error, setError, { name: 'name', model_id: 'model_id' });
      },
    }),
  );

  const refusal = create.error && !(create.error instanceof ApiError && Object.keys(create.error.fieldErrors).length > 0);
  const modelError = errors.model_id?.message;

  return (
    <Dialog title="Create Network" onClose={onClose} dismissible={!create.isPending}>
      <form noValidate onSubmit={onSubmit} className="space-y-5">
        {refusal && (
          <div role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950/40 dark:text-red-200">
            <p>{create.error.message}</p>
            {isPlanRefusal(create.error) && (
              <Link to="/billing" className="mt-1 inline-block font-medium underline">
                See plans in Billing
              </Link>
            )}
          </div>
        )}
        <TextField label="Network name" autoFocus error={errors.name?.message} {...register('name')} />
        <div>
          <label htmlFor="network-model" className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200">
            Model
          </label>
          <select
            id="network-model"
            aria-invalid={modelError ? true : undefined}
            aria-describedby={modelError ? 'network-model-error' : undefined}
            className="block h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
            {...register('model_id')}
          >
            {models.length === 0 && <option value="">Your plan includes no models</option>}
            {models.map((model) => (
              <option key={model.name} value={model.name}>
                {model.display_name} ({model.version})
              </option>
            ))}
          </select>
          {modelError && (
            <p id="network-model-error" className="mt-1.5 text-sm text-red-600 dark:text-red-400">
              {modelError}
            </p>
          )}
        </div>
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={onClose} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending && <Spinner />}
            Create Network
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
