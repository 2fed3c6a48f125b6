import { Create, useNotify, useRedirect } from 'react-admin';
import { ReadOnlyNotice, WriteOnly } from '../auth/use-can-write';
import type { AdminUser } from './admin-user';
import { UserForm } from './user-form';
import { userCreateOf, type UserFormValues } from './user-role';

/**
 * /admin/users/create: a customer, staff member or auditor made by staff (issue 15). The api
 * mails them a link to choose a password; the toast says so, and the list shows them.
 */
export function UserCreate() {
  const notify = useNotify();
  const redirect = useRedirect();
  return (
    <WriteOnly fallback={<ReadOnlyNotice />}>
      <Create
        transform={(values: UserFormValues) => userCreateOf(values)}
        mutationOptions={{
          onSuccess: (user: AdminUser) => {
            notify('resources.users.notifications.created', { type: 'success', messageArgs: { email: user.email } });
            redirect('list', 'users');
          },
          onError: () => notify('resources.users.notifications.create_failed', { type: 'error' }),
        }}
      >
        <UserForm creating />
      </Create>
    </WriteOnly>
  );
}
