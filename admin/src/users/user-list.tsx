import { Stack } from '@mui/material';
import { Datagrid, EmailField, List, NullableBooleanInput, SearchInput, TextField, WrapperField } from 'react-admin';
import { useCanWrite } from '../auth/use-can-write';
import { LoadFailed, useLoadFailureToast } from '../layout/load-failure';
import { BulkUserButtons } from './bulk/bulk-user-buttons';
import { DeleteUserButton } from './delete-user-button';
import { ToggleActiveButton } from './toggle-active-button';
import { UserListActions } from './user-list-actions';
import { FullNameField, PlanField, UserDateField, UserRoleField, UserStatusField } from './user-fields';

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

/**
 * Ten columns fit a 1280 px window beside the menu: half the usual room between columns, and the
 * two row actions stacked. In a narrower window, or with very long emails, the table scrolls,
 * never the page.
 */
const fitting = {
  '& .RaDatagrid-tableWrapper': { overflowX: 'auto' },
  '& .RaDatagrid-headerCell, & .RaDatagrid-rowCell': { px: 1 },
} as const;

/** /admin/users: searchable, filterable by status, with activate/deactivate, delete and bulk actions (for staff, not auditors). */
export function UserList() {
  const canWrite = useCanWrite();
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
      <Datagrid rowClick="show" bulkActionButtons={canWrite ? <BulkUserButtons /> : false} sx={fitting}>
        <TextField source="username" />
        <EmailField source="email" onClick={(event) => event.stopPropagation()} />
        <FullNameField label="resources.users.fields.full_name" sortBy="last_name" />
        <UserRoleField label="resources.users.fields.role" />
        <PlanField source="subscription_plan" sortable={false} />
        <UserStatusField source="is_active" />
        <UserDateField source="created_at" />
        <UserDateField source="last_login" />
        {canWrite ? (
          <WrapperField label="resources.users.fields.actions" textAlign="right">
            <Stack sx={{ alignItems: 'flex-end', whiteSpace: 'nowrap' }}>
              <ToggleActiveButton />
              <DeleteUserButton />
            </Stack>
          </WrapperField>
        ) : null}
      </Datagrid>
    </List>
  );
}
