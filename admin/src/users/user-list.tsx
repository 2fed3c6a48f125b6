import { Stack } from '@mui/material';
import { Datagrid, EmailField, List, NullableBooleanInput, SearchInput, TextField, WrapperField } from 'react-admin';
import { LoadFailed, useLoadFailureToast } from '../layout/load-failure';
import { BulkUserButtons } from './bulk/bulk-user-buttons';
import { DeleteUserButton } from './delete-user-button';
import { ToggleActiveButton } from './toggle-active-button';
import { UserListActions } from './user-list-actions';
import { FullNameField, PlanField, UserDateField, UserStatusField } from './user-fields';

// `q` matches username, email or full name on the server, ignoring case; `is_active` narrows to one status.
const filters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <NullableBooleanInput
    key="is_active"
    source="is_active"
    label="resources.users.filters.status"
    nullLabel="resources.users.filters.all"
    trueLabel="resources.users.filters.active"
    falseLabel="resources.users.filters.inactive"
    alwaysOn
    sx={{ minWidth: 160 }}
  />,
];

/** /admin/users: searchable, filterable by status, with activate/deactivate, delete and bulk actions. */
export function UserList() {
  const onLoadFailure = useLoadFailureToast('resources.users.notifications.load_failed');
  return (
    <List
      filters={filters}
      actions={<UserListActions />}
      sort={{ field: 'created_at', order: 'DESC' }}
      perPage={25}
      error={<LoadFailed message="resources.users.notifications.load_failed" />}
      queryOptions={{ onError: onLoadFailure }}
    >
      <Datagrid rowClick="show" bulkActionButtons={<BulkUserButtons />}>
        <TextField source="username" />
        <EmailField source="email" onClick={(event) => event.stopPropagation()} />
        <FullNameField label="resources.users.fields.full_name" sortBy="last_name" />
        <PlanField source="subscription_plan" sortable={false} />
        <UserStatusField source="is_active" />
        <UserDateField source="created_at" />
        <UserDateField source="last_login" />
        <WrapperField label="resources.users.fields.actions" textAlign="right">
          <Stack direction="row" sx={{ justifyContent: 'flex-end', whiteSpace: 'nowrap' }}>
            <ToggleActiveButton />
            <DeleteUserButton />
          </Stack>
        </WrapperField>
      </Datagrid>
    </List>
  );
}
