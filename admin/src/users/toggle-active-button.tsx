import BlockIcon from '@mui/icons-material/Block';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import type { MouseEvent } from 'react';
import { Button, useNotify, useRecordContext, useUpdate } from 'react-admin';
import type { AdminUser } from './admin-user';

/**
 * Activate or Deactivate (spec section 4: is_active toggles). The api takes the whole record
 * and changes only `is_active`; deactivating also ends the user's sessions, so the change is
 * made pessimistically, not with an undo window.
 */
export function ToggleActiveButton() {
  const user = useRecordContext<AdminUser>();
  const notify = useNotify();
  const [update, { isPending }] = useUpdate<AdminUser>();
  if (!user) return null;
  const activate = !user.is_active;

  const handleClick = (event: MouseEvent) => {
    event.stopPropagation(); // inside a list row, a click would also open the user
    void update(
      'users',
      { id: user.id, data: { ...user, is_active: activate }, previousData: user },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => notify(`resources.users.notifications.${activate ? 'activated' : 'deactivated'}`, { type: 'success' }),
        onError: () => notify(`resources.users.notifications.${activate ? 'activate_failed' : 'deactivate_failed'}`, { type: 'error' }),
      },
    );
  };

  return (
    <Button
      label={`resources.users.actions.${activate ? 'activate' : 'deactivate'}`}
      color={activate ? 'success' : 'warning'}
      onClick={handleClick}
      disabled={isPending}
    >
      {activate ? <CheckCircleIcon /> : <BlockIcon />}
    </Button>
  );
}
