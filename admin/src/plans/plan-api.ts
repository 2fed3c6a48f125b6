import type { AdminPlan } from '@meshwork/contracts';
import { authorizedFetch } from '../auth/http-client';
import { API_BASE } from '../auth/site-urls';

/**
 * The plans resource's calls beyond react-admin's CRUD. They join the data provider as
 * methods of their own, so `useDataProvider()` hands a refused session to the auth
 * provider as it does for every other call.
 */
export const planMethods = {
  /** POST /admin-panel/plans/{id}/restore/: an archived plan back on sale; answers the plan. */
  restorePlan: async (planId: string): Promise<AdminPlan> =>
    (await authorizedFetch(`${API_BASE}/admin-panel/plans/${encodeURIComponent(planId)}/restore/`, { method: 'POST' })).json as AdminPlan,
};
