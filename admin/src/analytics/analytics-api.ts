import type { AnalyticsRange, AnalyticsReport } from '@meshwork/contracts';
import { authorizedFetch } from '../auth/http-client';
import { API_BASE } from '../auth/site-urls';

/**
 * The analytics call. It joins the data provider as a method of its own, so a refused session
 * reaches the auth provider as every other call's does.
 */
export const analyticsMethods = {
  /** GET /admin-panel/analytics/?dateRange=: the period's series and summary. */
  getAnalytics: async (range: AnalyticsRange): Promise<AnalyticsReport> =>
    (await authorizedFetch(`${API_BASE}/admin-panel/analytics/?dateRange=${encodeURIComponent(range)}`)).json as AnalyticsReport,
};

/** The cache key of a range's report. */
export const analyticsKey = (range: AnalyticsRange) => ['admin-panel', 'analytics', range] as const;
