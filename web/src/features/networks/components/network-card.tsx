import { RenameNetworkRequest, type AvailableModel, type Device, type Network } from '@meshwork/contracts';
import { useId, useState } from 'react';
import { notifyFailure, notifySuccess } from '../../../shared/toast/notify';
import { Button } from '../../../shared/ui/button';
import { Card } from '../../../shared/ui/card';
import { useDeleteNetwork } from '../api/delete-network';
import { useRenameNetwork } from '../api/rename-network';
import { ConfirmDialog } from '../../../shared/ui/confirm-dialog';
import { HostPicker } from './host-picker';
import { JoinCodePanel } from './join-code-panel';
import { NetworkClients } from './network-clients';
import { RenameDialog } from './rename-dialog';

const statusClasses = {
  active: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900/50 dark:text-emerald-200',
  suspended: 'bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-200',
} as const;

/** One network: its model, status, host and clients, with rename, delete, host choice and join codes. */
export function NetworkCard({
  network,
  devices,
  models,
  maxClients,
}: {
  network: Network;
  devices: Device[];
  models: AvailableModel[];
  maxClients: number;
}) {
  const headingId = useId();
  const [dialog, setDialog] = useState<'rename' | 'delete' | null>(null);
  const rename = useRenameNetwork();
  const remove = useDeleteNetwork();
  const modelName = models.find((m) => m.name === network.model)?.display_name ?? network.model;
  const hostName = network.host ? (devices.find((d) => d.id === network.host)?.name ?? 'Unknown device') : null;

  const confirmDelete = () =>
    remove.mutate(network.id, {
      onSuccess: () => notifySuccess(`Network "${network.name}" deleted`),
      onError: (error) => notifyFailure('Failed to delete the network', error),
      onSettled: () => setDialog(null),
    });

  return (
    <Card role="region" aria-labelledby={headingId} className="p-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h3 id={headingId} className="text-lg font-semibold text-slate-900 dark:text-white">
            {network.name}
          </h3>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            Model: {modelName} · Host: {hostName ?? 'none yet'}
          </p>
        </div>
        <div className="flex items-center gap-2">
          <span className={`rounded-full px-2.5 py-0.5 text-xs font-medium capitalize ${statusClasses[network.status]}`}>
            {network.status}
          </span>
          <Button variant="ghost" size="sm" onClick={() => setDialog('rename')}>
            Rename
          </Button>
          <Button variant="ghost" size="sm" onClick={() => setDialog('delete')} className="text-red-700! dark:text-red-300!">
            Delete
          </Button>
        </div>
      </div>
      {network.status === 'suspended' && (
        <p className="mt-3 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950/40 dark:text-amber-200">
          Suspended: {network.suspended_reason ?? 'your plan does not cover this network.'}
        </p>
      )}
      <div className="mt-5 space-y-4 border-t border-slate-100 pt-4 dark:border-slate-800">
        <HostPicker network={network} devices={devices} />
        {network.host && network.status === 'active' && <JoinCodePanel networkId={network.id} />}
        <NetworkClients network={network} devices={devices} maxClients={maxClients} />
      </div>
      {dialog === 'rename' && (
        <RenameDialog
          title="Rename Network"
          label="Network name"
          currentName={network.name}
          schema={RenameNetworkRequest}
          save={(name) => rename.mutateAsync({ id: network.id, name }).then(() => notifySuccess('Network renamed'))}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === 'delete' && (
        <ConfirmDialog
          title="Delete Network"
          confirmLabel="Delete Network"
          pending={remove.isPending}
          onConfirm={confirmDelete}
          onClose={() => setDialog(null)}
        >
          Delete {network.name}? Its host and clients leave it at once. This cannot be undone.
        </ConfirmDialog>
      )}
    </Card>
  );
}
