import type { AdminUserCreate } from '@meshwork/contracts';
import type { AdminUser } from './admin-user';

/** The console's one choice of role; the api keeps it as two flags that exclude each other. */
export const ROLES = ['customer', 'staff', 'auditor'] as const;
export type UserRole = (typeof ROLES)[number];

export const roleOf = (user: Pick<AdminUser, 'is_staff' | 'is_auditor'>): UserRole =>
  user.is_staff ? 'staff' : user.is_auditor ? 'auditor' : 'customer';

export const flagsOf = (role: UserRole | undefined) => ({ is_staff: role === 'staff', is_auditor: role === 'auditor' });

/** What the user form edits. A cleared input may hold null. */
export interface UserFormValues {
  email?: string;
  username?: string;
  first_name?: string | null;
  last_name?: string | null;
  role?: UserRole;
}

/** POST /admin-panel/users/: exactly the fields it takes (it refuses any other). */
export function userCreateOf(values: UserFormValues): AdminUserCreate {
  return {
    email: values.email?.trim() ?? '',
    username: values.username?.trim() ?? '',
    first_name: values.first_name ?? '',
    last_name: values.last_name ?? '',
    ...flagsOf(values.role),
  };
}

/** PUT /admin-panel/users/{id}: the whole record back, with the names and the role's two flags. */
export function userUpdateOf({ role, ...user }: UserFormValues & Partial<AdminUser>): Partial<AdminUser> {
  return { ...user, first_name: user.first_name ?? '', last_name: user.last_name ?? '', ...flagsOf(role) };
}

/** The api reports a role problem under `is_staff` or `is_auditor`; the form shows it under its one role input. */
export function withRoleErrors(errors: Record<string, unknown>): Record<string, unknown> {
  const { is_staff: staff, is_auditor: auditor, ...rest } = errors;
  const role = staff ?? auditor;
  return role === undefined ? rest : { ...rest, role };
}
