import DeleteIcon from '@mui/icons-material/Delete';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Confirm, useDataProvider, useNotify } from 'react-admin';
import type { AdminModel } from '@meshwork/contracts';
import type { ConsoleDataProvider } from '../app/data-provider';
import { useModelCache } from './use-admin-models';

/**
 * Delete, after the spec's confirmation (section 8): 'Are you sure you want to delete
 * "{name}"? This action cannot be undone and will remove the model file from the server.'
 * The model leaves the list as soon as the server confirms (spec section 4).
 */
export function DeleteModelButton({ model }: { model: AdminModel }) {
  const notify = useNotify();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const cache = useModelCache();
  const [open, setOpen] = useState(false);
  const name = model.display_name || model.name;

  const remove = useMutation({
    mutationFn: () => dataProvider.deleteModel(model.id),
    onSuccess: () => {
      setOpen(false);
      cache.remove(model.id);
      notify('resources.models.notifications.deleted', { type: 'success' });
    },
    onError: () => notify('resources.models.notifications.delete_failed', { type: 'error' }),
  });

  return (
    <>
      <Button label="resources.models.actions.delete" color="error" onClick={() => setOpen(true)}>
        <DeleteIcon />
      </Button>
      <Confirm
        isOpen={open}
        loading={remove.isPending}
        title="resources.models.delete.title"
        content="resources.models.delete.content"
        translateOptions={{ name }}
        confirmColor="warning"
        onConfirm={() => remove.mutate()}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
