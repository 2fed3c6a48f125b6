import simpleRestProvider from 'ra-data-simple-rest';
import type { fetchUtils } from 'react-admin';
import type { AdminDashboardStats, AdminPayment, RefundRequest } from '@meshwork/contracts';
import { analyticsMethods } from '../analytics/analytics-api';
import { auditMethods } from '../audit/audit-api';
import { authorizedFetch } from '../auth/http-client';
import { API_BASE } from '../auth/site-urls';
import { catalogMethods } from '../models/catalog-api';
import { planMethods } from '../plans/plan-api';
import { userDeviceMethods } from '../users/tabs/user-tabs-api';
import { withFirstFieldMessages } from './field-errors';

const ADMIN_PANEL = `${API_BASE}/admin-panel`;

/** The staff's bearer token on every call, and server field errors in the shape react-admin's forms show. */
async function consoleFetch(url: string, options?: fetchUtils.Options) {
  try {
    return await authorizedFetch(url, options);
  } catch (error) {
    throw withFirstFieldMessages(error);
  }
}

/**
 * Every console resource is served by the api's admin-panel read models, behind the staff's
 * bearer token. The calls that are not a resource's CRUD are methods of their own; the model
 * catalogue's live under /admin-panel/models (see models/catalog-api.ts), a plan's restore in plans/plan-api.ts,
 * a user's devices and networks in users/tabs/user-tabs-api.ts, the audit trail's in audit/audit-api.ts,
 * the analytics report's in analytics/analytics-api.ts.
 */
export const dataProvider = {
  ...simpleRestProvider(ADMIN_PANEL, consoleFetch),
  ...catalogMethods,
  ...planMethods,
  ...userDeviceMethods,
  ...auditMethods,
  ...analyticsMethods,

  /** GET /admin-panel/dashboard/: the console home's figures. */
  getDashboardStats: async (): Promise<AdminDashboardStats> =>
    (await consoleFetch(`${ADMIN_PANEL}/dashboard/`)).json as AdminDashboardStats,

  /** POST /admin-panel/payments/{id}/refund/: answers the payment as it is after the refund. */
  refundPayment: async (id: string, request: RefundRequest): Promise<AdminPayment> =>
    (
      await consoleFetch(`${ADMIN_PANEL}/payments/${encodeURIComponent(id)}/refund/`, {
        method: 'POST',
        body: JSON.stringify(request),
      })
    ).json as AdminPayment,
};

/** For `useDataProvider<ConsoleDataProvider>()`, which then knows the methods above. */
export type ConsoleDataProvider = typeof dataProvider;
