import type { QueryClient } from '@tanstack/react-query';
import { profileQueryKey } from '../session/api/get-profile';

/**
 * Keys of every cached read that shows the signed-in user's plan. They live here, not in the
 * features, because a plan change made on one page (pricing, billing) must refresh the others.
 */
export const billingQueryKeys = {
  plans: ['billing', 'plans'],
  planInfo: ['billing', 'plan-info'],
  subscription: ['billing', 'subscription'],
  history: ['billing', 'history'],
  /** The dashboard summary and its usage statistics. */
  dashboard: ['dashboard'],
} as const;

/** After a subscribe, cancel or checkout: refetch the plan, subscription, history, dashboard and the profile's plan. */
export async function refreshPlanData(queryClient: QueryClient): Promise<void> {
  const { planInfo, subscription, history, dashboard } = billingQueryKeys;
  await Promise.all(
    [planInfo, subscription, history, dashboard, profileQueryKey].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  );
}
