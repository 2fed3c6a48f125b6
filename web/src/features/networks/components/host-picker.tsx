import type { Device, Network } from '@meshwork/contracts';
import { useId, useState } from 'react';
import { notifyFailure, notifySuccess } from '../../../shared/toast/notify';
import { Button } from '../../../shared/ui/button';
import { Spinner } from '../../../shared/ui/spinner';
import { useAssignHost } from '../api/assign-host';
import { useReleaseHost } from '../api/release-host';

/** Choose which of the customer's active devices hosts the network, or release the host. */
export function HostPicker({ network, devices }: { network: Network; devices: Device[] }) {
  const selectId = useId();
  const active = devices.filter((d) => d.status === 'active');
  const [chosen, setChosen] = useState(network.host ?? active[0]?.id ?? '');
  const assign = useAssignHost();
  const release = useReleaseHost();
  const pending = assign.isPending || release.isPending;

  if (active.length === 0) {
    return <p className="text-sm text-slate-600 dark:text-slate-400">Sign in the desktop app on a computer to choose a host.</p>;
  }

  const onAssign = () =>
    assign.mutate(
      { networkId: network.id, device_id: chosen },
      {
        onSuccess: () => notifySuccess('Host updated'),
        onError: (error) => notifyFailure('Failed to choose the host', error),
      },
    );
  const onRelease = () =>
    release.mutate(network.id, {
      onSuccess: () => notifySuccess('Host released'),
      onError: (error) => notifyFailure('Failed to release the host', error),
    });

  return (
    <div className="flex flex-wrap items-end gap-3">
      <div>
        <label htmlFor={selectId} className="mb-1 block text-xs font-medium text-slate-600 dark:text-slate-400">
          Host device
        </label>
        <select
          id={selectId}
          value={chosen}
          onChange={(event) => setChosen(event.target.value)}
          className="h-8 rounded-lg border border-slate-300 bg-white px-2 text-sm text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
        >
          {active.map((device) => (
            <option key={device.id} value={device.id}>
              {device.name}
            </option>
          ))}
        </select>
      </div>
      <Button size="sm" onClick={onAssign} disabled={pending || chosen === '' || chosen === network.host}>
        {assign.isPending && <Spinner />}
        Make Host
      </Button>
      {network.host && (
        <Button variant="ghost" size="sm" onClick={onRelease} disabled={pending}>
          {release.isPending && <Spinner />}
          Release Host
        </Button>
      )}
    </div>
  );
}
