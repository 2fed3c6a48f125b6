import { Button, CreateButton, TopToolbar } from 'react-admin';
import { WriteOnly } from '../auth/use-can-write';
import { BackIcon } from '../layout/back-icon';
import { BulkActionsMenu } from './bulk/bulk-actions-menu';

/** Back to the dashboard (spec section 2: /admin/users links back to /admin); for staff, New user and the bulk actions. */
export function UserListActions() {
  return (
    // Beside the filters it takes the room they leave (a width of 100% pushed it past the window's edge).
    <TopToolbar sx={{ justifyContent: 'space-between', flexGrow: 1 }}>
      <Button to="/" label="resources.users.actions.back_to_dashboard">
        <BackIcon />
      </Button>
      <WriteOnly>
        <div>
          <CreateButton label="resources.users.actions.create" />
          <BulkActionsMenu />
        </div>
      </WriteOnly>
    </TopToolbar>
  );
}
