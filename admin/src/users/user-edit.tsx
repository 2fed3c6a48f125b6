import { Edit, useNotify, useRedirect } from 'react-admin';
import { ReadOnlyNotice, WriteOnly } from '../auth/use-can-write';
import type { AdminUser } from './admin-user';
import { UserForm } from './user-form';
import { type UserFormValues, userUpdateOf } from './user-role';

/**
 * /admin/users/{id}: a user's names and role. Saving waits for the server, so a refusal (staff
 * cannot change their own role) stays in the form under the role instead of flashing back.
 */
export function UserEdit() {
  const notify = useNotify();
  const redirect = useRedirect();
  return (
    <WriteOnly fallback={<ReadOnlyNotice />}>
      <Edit
        mutationMode="pessimistic"
        transform={(values: UserFormValues & Partial<AdminUser>) => userUpdateOf(values)}
        mutationOptions={{
          onSuccess: (user: AdminUser) => {
            notify('resources.users.notifications.updated', { type: 'success' });
            redirect('show', 'users', user.id);
          },
          onError: () => notify('resources.users.notifications.update_failed', { type: 'error' }),
        }}
      >
        <UserForm />
      </Edit>
    </WriteOnly>
  );
}
