import { deviceName, type PendingActivation } from '@meshwork/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { formatDateTime } from '../../../shared/format/billing-format';
import { Button } from '../../../shared/ui/button';
import { Spinner } from '../../../shared/ui/spinner';
import { TextField } from '../../../shared/ui/text-field';

const NameForm = z.object({ name: deviceName });
type NameInput = z.input<typeof NameForm>;

export type Decision = { approve: true; name: string } | { approve: false };

/** The device behind the code: who asked and when; name it and approve, or deny. */
export function ConfirmActivation({
  pending,
  deciding,
  serverError,
  onDecide,
}: {
  pending: PendingActivation;
  deciding: boolean;
  serverError: string | null;
  onDecide: (decision: Decision) => void;
}) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<NameInput>({ resolver: zodResolver(NameForm), defaultValues: { name: pending.device_name } });

  return (
    <form noValidate onSubmit={handleSubmit(({ name }) => onDecide({ approve: true, name }))} className="space-y-5">
      {serverError && (
        <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950/40 dark:text-red-200">
          {serverError}
        </p>
      )}
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm" aria-label="Device asking to sign in">
        <dt className="text-slate-500 dark:text-slate-400">Code</dt>
        <dd className="font-mono text-slate-900 dark:text-white">{pending.user_code}</dd>
        <dt className="text-slate-500 dark:text-slate-400">Device</dt>
        <dd className="text-slate-900 dark:text-white">{pending.device_name}</dd>
        <dt className="text-slate-500 dark:text-slate-400">Platform</dt>
        <dd className="text-slate-900 dark:text-white">{pending.platform}</dd>
        <dt className="text-slate-500 dark:text-slate-400">App version</dt>
        <dd className="text-slate-900 dark:text-white">{pending.app_version}</dd>
        <dt className="text-slate-500 dark:text-slate-400">Asked</dt>
        <dd className="text-slate-900 dark:text-white">{formatDateTime(pending.requested_at)}</dd>
      </dl>
      <p className="text-sm text-slate-600 dark:text-slate-400">Approve only a device you are signing in yourself, right now.</p>
      <TextField label="Name this device" error={errors.name?.message} {...register('name')} />
      <div className="flex gap-3">
        <Button variant="secondary" fullWidth disabled={deciding} onClick={() => onDecide({ approve: false })}>
          Deny
        </Button>
        <Button type="submit" fullWidth disabled={deciding}>
          {deciding && <Spinner />}
          Approve
        </Button>
      </div>
    </form>
  );
}
