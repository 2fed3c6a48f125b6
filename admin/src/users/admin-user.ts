import type { AdminUser } from '@meshwork/contracts';

export type { AdminUser };

/** First and last name, as the list's "Full name" column shows them. */
export function fullName(user: Pick<AdminUser, 'first_name' | 'last_name'>): string {
  return [user.first_name, user.last_name].filter(Boolean).join(' ');
}
