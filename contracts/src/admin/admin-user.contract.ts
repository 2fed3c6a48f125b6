import { z } from 'zod';
import { timestamp } from '../http/http.contract';
import { User } from '../identity/account.contract';

/** A user as the console's users resource serves it (spec section 3, "Admin user"). */
export const AdminUser = User.omit({ allowed_models: true, is_staff: true })
  .extend({ is_active: z.boolean(), last_login: timestamp.nullable() })
  .meta({ id: 'AdminUser' });
export type AdminUser = z.output<typeof AdminUser>;
