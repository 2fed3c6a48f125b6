import BlockIcon from '@mui/icons-material/Block';
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Confirm, useNotify } from 'react-admin';
import { useCanWrite } from '../../auth/use-can-write';

/**
 * Revoke, for staff (not auditors), after a confirmation naming what goes; then the lists in
 * `refresh` are read again. `messages` is the i18n prefix (`resources.users.devices`) under
 * which `actions.revoke`, `revoke.title`, `revoke.content` and `notifications.revoked` /
 * `notifications.revoke_failed` stand.
 */
export function RevokeButton({
  messages,
  name,
  revoke,
  refresh,
}: {
  messages: string;
  name: string;
  revoke: () => Promise<unknown>;
  refresh: QueryKey[];
}) {
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const canWrite = useCanWrite();
  const mutation = useMutation({
    mutationFn: revoke,
    onSuccess: async () => {
      setOpen(false);
      notify(`${messages}.notifications.revoked`, { type: 'success' });
      await Promise.all(refresh.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
    onError: () => notify(`${messages}.notifications.revoke_failed`, { type: 'error' }),
  });
  if (!canWrite) return null;
  return (
    <>
      <Button label={`${messages}.actions.revoke`} color="warning" onClick={() => setOpen(true)}>
        <BlockIcon />
      </Button>
      <Confirm
        isOpen={open}
        loading={mutation.isPending}
        title={`${messages}.revoke.title`}
        content={`${messages}.revoke.content`}
        translateOptions={{ name }}
        confirmColor="warning"
        onConfirm={() => mutation.mutate()}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
