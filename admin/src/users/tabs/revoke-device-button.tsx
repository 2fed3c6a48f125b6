import { useDataProvider, useRecordContext } from 'react-admin';
import type { AdminDevice } from '@meshwork/contracts';
import type { ConsoleDataProvider } from '../../app/data-provider';
import { RevokeButton } from './revoke-button';
import { userDevicesKey, userNetworksKey } from './user-tabs-api';

/**
 * Revoke, on an active device: the device's tokens stop working at once and it is told so over
 * its stream. The list shows it revoked by staff; the Networks tab, which names hosts, is read again too.
 */
export function RevokeDeviceButton() {
  const device = useRecordContext<AdminDevice>();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  if (!device || device.status !== 'active') return null;
  return (
    <RevokeButton
      messages="resources.users.devices"
      name={device.name}
      revoke={() => dataProvider.revokeDevice(device.id)}
      refresh={[userDevicesKey(device.user_id), userNetworksKey(device.user_id)]}
    />
  );
}
