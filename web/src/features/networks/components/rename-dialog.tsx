import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { applyServerErrors } from '../../../shared/forms/apply-server-errors';
import { Button } from '../../../shared/ui/button';
import { Dialog } from '../../../shared/ui/dialog';
import { Spinner } from '../../../shared/ui/spinner';
import { TextField } from '../../../shared/ui/text-field';

/** What a rename form checks: the contract's request body (RenameNetworkRequest, DeviceRename). */
type NameSchema = z.ZodType<{ name: string }, { name: string }>;

/**
 * Rename a network or a device. `save` runs the mutation and resolves once it is done; a
 * refusal stays in the dialog under the field (or above it when it names no field).
 */
export function RenameDialog({
  title,
  label,
  currentName,
  schema,
  save,
  onClose,
}: {
  title: string;
  label: string;
  currentName: string;
  schema: NameSchema;
  save: (name: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<{ name: string }>({ resolver: zodResolver(schema), defaultValues: { name: currentName } });

  const onSubmit = handleSubmit(async ({ name }) => {
    try {
      await save(name);
      onClose();
    } catch (error) {
      if (!applyServerErrors(error, setError, { name: 'name' })) {
        setError('root', { message: error instanceof Error ? error.message : 'Could not rename' });
      }
    }
  });

  return (
    <Dialog title={title} onClose={onClose} dismissible={!isSubmitting}>
      <form noValidate onSubmit={onSubmit} className="space-y-5">
        {errors.root && (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {errors.root.message}
          </p>
        )}
        <TextField label={label} autoFocus error={errors.name?.message} {...register('name')} />
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={onClose} disabled={isSubmitting}>
            Cancel
          </Button>
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting && <Spinner />}
            Save
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
