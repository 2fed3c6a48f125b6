import BlockIcon from '@mui/icons-material/Block';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Confirm, useDataProvider, useNotify, useRecordContext } from 'react-admin';
import type { AdminDevice } from '@meshwork/contracts';
import type { ConsoleDataProvider } from '../../app/data-provider';
import { useCanWrite } from '../../auth/use-can-write';
import { userDevicesKey, userNetworksKey } from './user-tabs-api';

/**
 * Revoke, on an active device (for staff, not auditors), after a confirmation naming it: the device's tokens stop
 * working at once and it is told so over its stream. The list shows it revoked by staff.
 */
export function RevokeDeviceButton() {
  const device = useRecordContext<AdminDevice>();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [open, setOpen] = useState(false);
  const canWrite = useCanWrite();

  const revoke = useMutation({
    mutationFn: (deviceId: string) => dataProvider.revokeDevice(deviceId),
    onSuccess: async () => {
      setOpen(false);
      notify('resources.users.devices.notifications.revoked', { type: 'success' });
      const userId = device?.user_id ?? '';
      await Promise.all([userDevicesKey(userId), userNetworksKey(userId)].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
    onError: () => notify('resources.users.devices.notifications.revoke_failed', { type: 'error' }),
  });

  if (!device || device.status !== 'active' || !canWrite) return null;
  return (
    <>
      <Button label="resources.users.devices.actions.revoke" color="warning" onClick={() => setOpen(true)}>
        <BlockIcon />
      </Button>
      <Confirm
        isOpen={open}
        loading={revoke.isPending}
        title="resources.users.devices.revoke.title"
        content="resources.users.devices.revoke.content"
        translateOptions={{ name: device.name }}
        confirmColor="warning"
        onConfirm={() => revoke.mutate(device.id)}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
