import type { AuditPage, ResourceState, ResourceStateQuery } from '@meshwork/contracts';
import { authorizedFetch } from '../auth/http-client';
import { API_BASE } from '../auth/site-urls';
import { auditQueryOf, type AuditFilterValues } from './audit-filter';

const AUDIT = `${API_BASE}/admin-panel/audit`;

/** The file name the api gives the export ("audit-2025-01-31.csv"), without its extension. */
function exportName(disposition: string | null): string {
  const name = /filename="?([^";]+)"?/.exec(disposition ?? '')?.[1] ?? `audit-${new Date().toISOString().slice(0, 10)}.csv`;
  return name.replace(/\.csv$/i, '');
}

/**
 * The audit trail's calls (issue 15). They join the data provider as methods of their own, so
 * a refused session reaches the auth provider as every other call's does.
 */
export const auditMethods = {
  /** GET /admin-panel/audit/: one page, newest first; `cursor` is the previous page's next_cursor. */
  getAuditPage: async (filter: AuditFilterValues, page: { cursor?: number; limit?: number } = {}): Promise<AuditPage> =>
    (await authorizedFetch(`${AUDIT}/?${auditQueryOf(filter, page)}`)).json as AuditPage,

  /** GET /admin-panel/audit/export/: every entry the filter matches, as the api's CSV, with the name it gives the file. */
  exportAudit: async (filter: AuditFilterValues): Promise<{ csv: string; name: string }> => {
    const { body, headers } = await authorizedFetch(`${AUDIT}/export/?${auditQueryOf(filter)}`, {
      headers: new Headers({ Accept: 'text/csv' }),
    });
    return { csv: body, name: exportName(headers.get('Content-Disposition')) };
  },

  /** GET /admin-panel/audit/state/{type}/{id}/: the resource replayed up to `as_of` (now when absent), compared with `compare_to`. */
  getResourceState: async (resource: string, id: string, query: ResourceStateQuery): Promise<ResourceState> =>
    (await authorizedFetch(`${AUDIT}/state/${encodeURIComponent(resource)}/${encodeURIComponent(id)}/?${new URLSearchParams(query)}`))
      .json as ResourceState,
};

/** The cache key of a filter's pages. */
export const auditKey = (filter: AuditFilterValues, limit: number) => ['admin-panel', 'audit', filter, limit] as const;
