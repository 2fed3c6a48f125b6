import { z } from 'zod';
import { timestamp } from '../http/http.contract';
import { email, User, username } from '../identity/account.contract';
import { text } from '../common/fields';

/** A user as the console's users resource serves it (spec section 3, "Admin user"). */
export const AdminUser = User.omit({ allowed_models: true })
  .extend({ is_active: z.boolean(), last_login: timestamp.nullable() })
  .meta({ id: 'AdminUser' });
export type AdminUser = z.output<typeof AdminUser>;

const name = (label: string) => text(label, { max: 150, required: false });
const flag = (label: string) => z.boolean({ error: `${label} must be true or false` });
const staffOrAuditor = { path: ['is_auditor'], message: 'A user is either staff or an auditor, not both.' };

/** POST /admin-panel/users/: a user made by staff, who is mailed a link to choose a password. */
export const AdminUserCreate = z
  .object({
    email,
    username,
    first_name: name('First name').default(''),
    last_name: name('Last name').default(''),
    is_staff: flag('is_staff').default(false),
    is_auditor: flag('is_auditor').default(false),
  })
  .strict()
  .refine((u) => !(u.is_staff && u.is_auditor), staffOrAuditor)
  .meta({ id: 'AdminUserCreate' });
export type AdminUserCreate = z.input<typeof AdminUserCreate>;

/**
 * PUT /admin-panel/users/{id}: react-admin sends the whole record back, so unknown fields are
 * ignored; of these, only the ones that differ from the user's change.
 */
export const AdminUserUpdate = z
  .object({
    is_active: flag('is_active').optional(),
    first_name: name('First name').optional(),
    last_name: name('Last name').optional(),
    is_staff: flag('is_staff').optional(),
    is_auditor: flag('is_auditor').optional(),
  })
  .loose()
  .meta({ id: 'AdminUserUpdate' });
export type AdminUserUpdate = z.input<typeof AdminUserUpdate>;
