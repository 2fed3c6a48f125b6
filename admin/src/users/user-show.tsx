import { Button, NumberField, Show, TabbedShowLayout, TextField, TopToolbar, useRecordContext, useTranslate } from 'react-admin';
import { BackIcon } from '../layout/back-icon';
import type { AdminUser } from './admin-user';
import { DeleteUserButton } from './delete-user-button';
import { UserDevicesTab } from './tabs/user-devices-tab';
import { UserNetworksTab } from './tabs/user-networks-tab';
import { ToggleActiveButton } from './toggle-active-button';
import { PlanField, UserDateField, UserStatusField } from './user-fields';

function UserShowActions() {
  return (
    <TopToolbar sx={{ justifyContent: 'space-between', width: '100%' }}>
      <Button to="/users" label="resources.users.actions.back_to_list">
        <BackIcon />
      </Button>
      <div>
        <ToggleActiveButton />
        <DeleteUserButton />
      </div>
    </TopToolbar>
  );
}

function UserTitle() {
  const translate = useTranslate();
  const user = useRecordContext<AdminUser>();
  return <span>{translate('resources.users.show_title', { name: user ? user.username || user.email : '' })}</span>;
}

/**
 * One user, read only: the only change staff make is activate/deactivate, or delete, and
 * revoking one of their devices. The Devices and Networks tabs are their desktop world (issue 12).
 */
export function UserShow() {
  return (
    <Show actions={<UserShowActions />} title={<UserTitle />}>
      <TabbedShowLayout>
        <TabbedShowLayout.Tab label="resources.users.tabs.details">
          <TextField source="username" />
          <TextField source="email" />
          <TextField source="first_name" emptyText="—" />
          <TextField source="last_name" emptyText="—" />
          <PlanField source="subscription_plan" />
          <NumberField source="max_clients" />
          <UserStatusField source="is_active" />
          <UserDateField source="created_at" />
          <UserDateField source="last_login" />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="resources.users.tabs.devices" path="devices">
          <UserDevicesTab />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="resources.users.tabs.networks" path="networks">
          <UserNetworksTab />
        </TabbedShowLayout.Tab>
      </TabbedShowLayout>
    </Show>
  );
}
