import { Chip } from '@mui/material';
import { DateField, FunctionField, useLocaleState, useTranslate } from 'react-admin';
import { type AdminUser, fullName } from './admin-user';
import { roleOf } from './user-role';

interface FieldProps {
  source?: string;
  label?: string;
  sortable?: boolean;
  sortBy?: string;
}

/** "Zoë Quinn", sorted by last name. */
export function FullNameField(props: FieldProps) {
  return <FunctionField<AdminUser> {...props} render={(user) => fullName(user)} />;
}

/** The plan's name in the console's language; an unknown slug shows as it is. */
export function PlanField(props: FieldProps) {
  const translate = useTranslate();
  return (
    <FunctionField<AdminUser>
      {...props}
      render={(user) => translate(`resources.users.plans.${user.subscription_plan}`, { _: user.subscription_plan })}
    />
  );
}

/** Active or Inactive, as a coloured chip. */
export function UserStatusField(props: FieldProps) {
  const translate = useTranslate();
  return (
    <FunctionField<AdminUser>
      {...props}
      render={(user) =>
        user.is_active ? (
          <Chip size="small" color="success" label={translate('resources.users.status.active')} />
        ) : (
          <Chip size="small" variant="outlined" label={translate('resources.users.status.inactive')} />
        )
      }
    />
  );
}

/** Staff or Auditor as a chip; a customer, the plain word. */
export function UserRoleField(props: FieldProps) {
  const translate = useTranslate();
  return (
    <FunctionField<AdminUser>
      {...props}
      render={(user) => {
        const role = roleOf(user);
        const label = translate(`resources.users.roles.${role}`);
        return role === 'customer' ? label : <Chip size="small" color={role === 'staff' ? 'primary' : 'secondary'} label={label} />;
      }}
    />
  );
}

/** Date and time, short, in the console's language (spec section 9: en-US short with hour and minute). */
export function UserDateField(props: FieldProps & { source: string }) {
  const [locale] = useLocaleState();
  return (
    <DateField
      {...props}
      showTime
      locales={locale === 'fa' ? 'fa-IR' : 'en-US'}
      options={{ dateStyle: 'short', timeStyle: 'short' }}
      emptyText="resources.users.never"
    />
  );
}
