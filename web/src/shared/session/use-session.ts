import type { User } from '@meshwork/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useProfile } from './api/get-profile';
import { endSession } from './session';

export type Session = { status: 'loading'; user: null } | { status: 'anonymous'; user: null } | { status: 'authenticated'; user: User };

/** Who is signed in. While a saved token is being checked the status is `loading`. */
export function useSession(): Session {
  const { data, isPending } = useProfile();
  if (data) return { status: 'authenticated', user: data };
  return isPending ? { status: 'loading', user: null } : { status: 'anonymous', user: null };
}

/** Mounted once at the root: a saved token whose profile cannot be loaded is logged out (spec section 4). */
export function useSessionBootstrap(): void {
  const queryClient = useQueryClient();
  const { isError, data } = useProfile();
  const failedWithoutUser = isError && !data;
  useEffect(() => {
    if (failedWithoutUser) endSession(queryClient);
  }, [failedWithoutUser, queryClient]);
}
