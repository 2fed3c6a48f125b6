import { email, RadioButtonGroupInput, required, SimpleForm, TextInput, useRecordContext, useSaveContext } from 'react-admin';
import type { AdminUser } from './admin-user';
import { ROLES, roleOf, type UserFormValues, withRoleErrors } from './user-role';

const roleChoices = ROLES.map((role) => ({ id: role, name: `resources.users.roles.${role}` }));

/**
 * The user form of the create and edit pages: email and username when creating (neither
 * changes later), the names, and the role as one choice. The server's field errors land under
 * their fields, a role problem under the role.
 */
export function UserForm({ creating = false }: { creating?: boolean }) {
  const { save } = useSaveContext();
  const user = useRecordContext<AdminUser>();
  const submit = async (values: UserFormValues) => {
    const errors = (await save?.(values)) as Record<string, unknown> | undefined | void;
    return errors ? withRoleErrors(errors) : undefined;
  };
  return (
    <SimpleForm
      onSubmit={submit}
      record={user ? { ...user, role: roleOf(user) } : undefined}
      defaultValues={creating ? { role: 'customer' } : undefined}
      // The failure toast says what happened; react-admin's "form is not valid" toast would only repeat it.
      disableInvalidFormNotification
    >
      {creating ? <TextInput source="email" type="email" validate={[required(), email()]} /> : null}
      {creating ? <TextInput source="username" validate={required()} /> : null}
      <TextInput source="first_name" />
      <TextInput source="last_name" />
      <RadioButtonGroupInput source="role" choices={roleChoices} helperText="resources.users.helpers.role" />
    </SimpleForm>
  );
}
