import { Button, TopToolbar } from 'react-admin';
import { BackIcon } from '../layout/back-icon';
import { BulkActionsMenu } from './bulk/bulk-actions-menu';

/** Back to the dashboard (spec section 2: /admin/users links back to /admin), and the bulk actions. */
export function UserListActions() {
  return (
    <TopToolbar sx={{ justifyContent: 'space-between', width: '100%' }}>
      <Button to="/" label="resources.users.actions.back_to_dashboard">
        <BackIcon />
      </Button>
      <BulkActionsMenu />
    </TopToolbar>
  );
}
