import { DeviceRename, type Device } from '@meshwork/contracts';
import { useState } from 'react';
import { notifyFailure, notifySuccess } from '../../../shared/toast/notify';
import { Button } from '../../../shared/ui/button';
import { RegionCard } from '../../../shared/ui/region-card';
import { useRenameDevice } from '../api/rename-device';
import { useRevokeDevice } from '../api/revoke-device';
import { ConfirmDialog } from '../../../shared/ui/confirm-dialog';
import { formatRelative } from './network-format';
import { RenameDialog } from './rename-dialog';
import { useNow } from './use-now';

type Pending = { kind: 'rename' | 'revoke'; device: Device } | null;

/** The customer's devices: name, platform, app version, last seen and status; rename and revoke. */
export function DevicesSection({ devices }: { devices: Device[] }) {
  const [pending, setPending] = useState<Pending>(null);
  const rename = useRenameDevice();
  const revoke = useRevokeDevice();
  const now = useNow(30_000);

  const confirmRevoke = (device: Device) =>
    revoke.mutate(device.id, {
      onSuccess: () => notifySuccess(`${device.name} revoked`),
      onError: (error) => notifyFailure('Failed to revoke the device', error),
      onSettled: () => setPending(null),
    });

  return (
    <RegionCard title="Devices">
      {devices.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          No devices yet. Sign in the desktop app on a computer and approve it on the activation page it opens.
        </p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="text-xs text-slate-500 uppercase dark:text-slate-400">
              <tr>
                <th className="py-2 pr-4 font-medium">Name</th>
                <th className="py-2 pr-4 font-medium">Platform</th>
                <th className="py-2 pr-4 font-medium">App version</th>
                <th className="py-2 pr-4 font-medium">Last seen</th>
                <th className="py-2 pr-4 font-medium">Status</th>
                <th className="py-2 font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 text-slate-800 dark:divide-slate-800 dark:text-slate-100">
              {devices.map((device) => (
                <tr key={device.id}>
                  <td className="py-2 pr-4 font-medium">
                    {device.name}
                    {device.current && <span className="ml-2 text-xs text-brand-700 dark:text-brand-300">(this device)</span>}
                  </td>
                  <td className="py-2 pr-4">{device.platform}</td>
                  <td className="py-2 pr-4">{device.app_version}</td>
                  <td className="py-2 pr-4">
                    <time dateTime={device.last_seen_at}>{formatRelative(device.last_seen_at, now)}</time>
                  </td>
                  <td className="py-2 pr-4 capitalize">{device.status}</td>
                  <td className="py-2 text-right whitespace-nowrap">
                    {device.status === 'active' && (
                      <>
                        <Button
                          variant="ghost"
                          size="sm"
                          onClick={() => setPending({ kind: 'rename', device })}
                          aria-label={`Rename ${device.name}`}
                        >
                          Rename
                        </Button>
                        <Button
                          variant="ghost"
                          size="sm"
                          onClick={() => setPending({ kind: 'revoke', device })}
                          aria-label={`Revoke ${device.name}`}
                          className="text-red-700! dark:text-red-300!"
                        >
                          Revoke
                        </Button>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pending?.kind === 'rename' && (
        <RenameDialog
          title="Rename Device"
          label="Device name"
          currentName={pending.device.name}
          schema={DeviceRename}
          save={(name) => rename.mutateAsync({ id: pending.device.id, name }).then(() => notifySuccess('Device renamed'))}
          onClose={() => setPending(null)}
        />
      )}
      {pending?.kind === 'revoke' && (
        <ConfirmDialog
          title="Revoke Device"
          confirmLabel="Revoke Device"
          pending={revoke.isPending}
          onConfirm={() => confirmRevoke(pending.device)}
          onClose={() => setPending(null)}
        >
          Revoke {pending.device.name}? It is signed out at once and leaves its networks.
        </ConfirmDialog>
      )}
    </RegionCard>
  );
}
