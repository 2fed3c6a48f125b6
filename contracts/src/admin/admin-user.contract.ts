import { z } from 'zod';
import { timestamp } from '../http/http.contract';

/** A user as the console's users resource serves it (spec section 3, "Admin user"). */
export const AdminUser = z
  .object({
    id: z.uuid(),
    username: z.string(),
    email: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    subscription_plan: z.string(),
    max_clients: z.number().int(),
    is_active: z.boolean(),
    created_at: timestamp,
    last_login: timestamp.nullable(),
  })
  .meta({ id: 'AdminUser' });
export type AdminUser = z.output<typeof AdminUser>;
