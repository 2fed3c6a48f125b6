import type { Device, Network, NetworkClient } from '@meshwork/contracts';
import { useState } from 'react';
import { formatDateTime } from '../../../shared/format/billing-format';
import { notifyFailure, notifySuccess } from '../../../shared/toast/notify';
import { Button } from '../../../shared/ui/button';
import { useRemoveClient } from '../api/remove-client';
import { ConfirmDialog } from '../../../shared/ui/confirm-dialog';
import { usedOf } from './network-format';

/** The network's clients (device name, joined at), each removable after a confirmation. */
export function NetworkClients({ network, devices, maxClients }: { network: Network; devices: Device[]; maxClients: number }) {
  const [removing, setRemoving] = useState<NetworkClient | null>(null);
  const remove = useRemoveClient();
  const nameOf = (id: string) => devices.find((d) => d.id === id)?.name ?? 'Unknown device';

  const confirmRemove = (client: NetworkClient) =>
    remove.mutate(
      { networkId: network.id, deviceId: client.device_id },
      {
        onSuccess: () => notifySuccess('Client removed'),
        onError: (error) => notifyFailure('Failed to remove the client', error),
        onSettled: () => setRemoving(null),
      },
    );

  return (
    <div>
      <p className="text-sm font-medium text-slate-700 dark:text-slate-200">Clients {usedOf(network.clients.count, maxClients)}</p>
      {network.clients.devices.length > 0 && (
        <ul className="mt-2 divide-y divide-slate-100 dark:divide-slate-800" aria-label={`Clients of ${network.name}`}>
          {network.clients.devices.map((client) => (
            <li key={client.device_id} className="flex items-center justify-between gap-3 py-2 text-sm">
              <span className="text-slate-800 dark:text-slate-100">
                {nameOf(client.device_id)}
                <span className="ml-2 text-slate-500 dark:text-slate-400">joined {formatDateTime(client.joined_at)}</span>
              </span>
              <Button variant="ghost" size="sm" onClick={() => setRemoving(client)} aria-label={`Remove ${nameOf(client.device_id)}`}>
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      {removing && (
        <ConfirmDialog
          title="Remove Client"
          confirmLabel="Remove Client"
          pending={remove.isPending}
          onConfirm={() => confirmRemove(removing)}
          onClose={() => setRemoving(null)}
        >
          Remove {nameOf(removing.device_id)} from {network.name}? It can join again with a new join code.
        </ConfirmDialog>
      )}
    </div>
  );
}
