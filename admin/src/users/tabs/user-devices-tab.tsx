import HistoryIcon from '@mui/icons-material/History';
import { Chip } from '@mui/material';
import { Button, FunctionField, TextField, useRecordContext, useTranslate, WrapperField } from 'react-admin';
import type { AdminDevice } from '@meshwork/contracts';
import { auditLinkOf } from '../../audit/audit-filter';
import { UserDateField } from '../user-fields';
import { RevokeDeviceButton } from './revoke-device-button';
import { UserListTab } from './tab-parts';
import { userDevicesKey } from './user-tabs-api';

const label = (field: string) => `resources.users.devices.fields.${field}`;

/** Active, or revoked and by whom (the owner from the site, or staff from here). */
function DeviceStatusField(props: { label: string }) {
  const translate = useTranslate();
  return (
    <FunctionField<AdminDevice>
      {...props}
      render={(device) =>
        device.status === 'active' ? (
          <Chip size="small" color="success" label={translate('resources.users.devices.status.active')} />
        ) : (
          <Chip
            size="small"
            variant="outlined"
            label={translate(`resources.users.devices.status.revoked_by_${device.revoked_by ?? 'user'}`)}
          />
        )
      }
    />
  );
}

/** A device's history: the Audit screen showing its stream (device-<id>). */
function DeviceHistoryButton() {
  const device = useRecordContext<AdminDevice>();
  if (!device) return null;
  return (
    <Button to={auditLinkOf({ resource_type: 'device', resource_id: device.id })} label="resources.users.devices.actions.history">
      <HistoryIcon />
    </Button>
  );
}

/** The user's Devices tab: their machines, newest first, each with its history, and Revoke on the active ones. */
export function UserDevicesTab() {
  return (
    <UserListTab kind="devices" queryKey={userDevicesKey} load={(dataProvider, userId) => dataProvider.getUserDevices(userId)}>
      <TextField source="name" label={label('name')} emptyText="—" sortable={false} />
      <TextField source="platform" label={label('platform')} sortable={false} />
      <TextField source="app_version" label={label('app_version')} sortable={false} />
      <UserDateField source="last_seen_at" label={label('last_seen_at')} sortable={false} />
      <DeviceStatusField label={label('status')} />
      <WrapperField label={label('actions')} textAlign="right">
        <DeviceHistoryButton />
        <RevokeDeviceButton />
      </WrapperField>
    </UserListTab>
  );
}
