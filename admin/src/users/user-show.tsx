import {
  Button,
  EditButton,
  NumberField,
  Show,
  TabbedShowLayout,
  TextField,
  TopToolbar,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { WriteOnly } from '../auth/use-can-write';
import { BackIcon } from '../layout/back-icon';
import type { AdminUser } from './admin-user';
import { DeleteUserButton } from './delete-user-button';
import { UserApiTokensTab } from './tabs/user-api-tokens-tab';
import { UserDevicesTab } from './tabs/user-devices-tab';
import { UserHistoryTab } from './tabs/user-history-tab';
import { UserNetworksTab } from './tabs/user-networks-tab';
import { ToggleActiveButton } from './toggle-active-button';
import { PlanField, UserDateField, UserRoleField, UserStatusField } from './user-fields';

function UserShowActions() {
  return (
    <TopToolbar sx={{ justifyContent: 'space-between', width: '100%' }}>
      <Button to="/users" label="resources.users.actions.back_to_list">
        <BackIcon />
      </Button>
      <WriteOnly>
        <div>
          <EditButton label="resources.users.actions.edit" />
          <ToggleActiveButton />
          <DeleteUserButton />
        </div>
      </WriteOnly>
    </TopToolbar>
  );
}

function UserTitle() {
  const translate = useTranslate();
  const user = useRecordContext<AdminUser>();
  return <span>{translate('resources.users.show_title', { name: user ? user.username || user.email : '' })}</span>;
}

/**
 * One user. Staff edit their names and role, activate or deactivate, delete, and revoke one of
 * their devices. The Devices and Networks tabs are their desktop world (issue 12); History is
 * what the event log recorded of the account (issue 15).
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
          <UserRoleField label="resources.users.fields.role" />
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
        <TabbedShowLayout.Tab label="resources.users.tabs.api_tokens" path="api-tokens">
          <UserApiTokensTab />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="resources.users.tabs.history" path="history">
          <UserHistoryTab />
        </TabbedShowLayout.Tab>
      </TabbedShowLayout>
    </Show>
  );
}
