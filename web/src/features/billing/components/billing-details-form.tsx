import type { BillingDetails, BillingDetailsRequest } from '@meshwork/contracts';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { errorMessage } from '../../../shared/api/api-error';
import { applyServerErrors } from '../../../shared/forms/apply-server-errors';
import { lazyZodResolver } from '../../../shared/forms/lazy-zod-resolver';
import { notifyError, notifySuccess } from '../../../shared/toast/notify';
import { Button } from '../../../shared/ui/button';
import { RegionCard } from '../../../shared/ui/region-card';
import { Spinner } from '../../../shared/ui/spinner';
import { TextAreaField, TextField } from '../../../shared/ui/text-field';
import { useBillingDetails, useSaveBillingDetails } from '../api/invoices';

type DetailsInput = z.input<typeof BillingDetailsRequest>;
type DetailsOutput = z.output<typeof BillingDetailsRequest>;

const resolver = lazyZodResolver(() => import('@meshwork/contracts').then(({ BillingDetailsRequest }) => BillingDetailsRequest));
const serverFields = { name: 'name', address: 'address', country: 'country', tax_id: 'tax_id' } as const;

/** Who the invoices are made out to: printed on each one issued after a save. */
export function BillingDetailsForm() {
  const details = useBillingDetails();
  return (
    <RegionCard title="Billing Details">
      {details.data ? (
        <DetailsForm saved={details.data} />
      ) : details.error ? (
        <p className="text-sm text-red-600">Failed to load.</p>
      ) : (
        <Spinner />
      )}
    </RegionCard>
  );
}

function DetailsForm({ saved }: { saved: BillingDetails }) {
  const save = useSaveBillingDetails();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<DetailsInput, unknown, DetailsOutput>({ resolver, defaultValues: saved });

  const onSubmit = handleSubmit((values) =>
    save.mutate(values, {
      onSuccess: () => notifySuccess('Billing details saved. Your next invoices will show them.'),
      onError: (error) => {
        if (!applyServerErrors(error, setError, serverFields))
          notifyError(errorMessage(error, 'Could not save your billing details.'), error);
      },
    }),
  );

  return (
    <form noValidate onSubmit={onSubmit} onFocus={resolver.preload} className="space-y-4" aria-label="Billing details">
      <TextField label="Billing name" autoComplete="organization" error={errors.name?.message} {...register('name')} />
      <TextAreaField label="Address" rows={3} autoComplete="street-address" error={errors.address?.message} {...register('address')} />
      <TextField label="Country" autoComplete="country-name" error={errors.country?.message} {...register('country')} />
      <TextField label="Tax id (optional)" error={errors.tax_id?.message} {...register('tax_id')} />
      <Button type="submit" disabled={save.isPending} fullWidth>
        {save.isPending && <Spinner />}
        {save.isPending ? 'Saving…' : 'Save Billing Details'}
      </Button>
    </form>
  );
}
