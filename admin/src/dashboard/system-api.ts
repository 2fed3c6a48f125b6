import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLogoutIfAccessDenied } from 'react-admin';
import type { ProjectionStatus, SkipProjectionEventRequest } from '@meshwork/contracts';
import { authorizedFetch } from '../auth/http-client';
import { API_BASE } from '../auth/site-urls';

const PROJECTIONS = `${API_BASE}/admin-panel/system/projections`;
const queryKey = ['admin-panel', 'system', 'projections'];

async function call<T>(url: string, method = 'GET', body?: unknown): Promise<T> {
  const { json } = await authorizedFetch(url, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return json as T;
}

/** GET /admin-panel/system/projections/: each projection and the relay, with the event a stuck one cannot apply. */
export const getProjections = () => call<ProjectionStatus[]>(`${PROJECTIONS}/`);

/** POST .../{name}/retry/: try the failing event again now; answers the projection's state. */
export const retryProjection = (name: string) => call<ProjectionStatus>(`${PROJECTIONS}/${encodeURIComponent(name)}/retry/`, 'POST');

/** POST .../{name}/skip/: skip the event it is stuck on, for the record; answers the projection's state. */
export const skipProjectionEvent = (name: string, request: SkipProjectionEventRequest) =>
  call<ProjectionStatus>(`${PROJECTIONS}/${encodeURIComponent(name)}/skip/`, 'POST', request);

/**
 * The projections' states, every 15 seconds, every 2 while one is not up (a retry or a
 * catch-up shows without a click). A refused session goes to the auth provider, as the data
 * provider's calls do.
 */
export function useProjections() {
  const logoutIfAccessDenied = useLogoutIfAccessDenied();
  return useQuery({
    queryKey,
    queryFn: () =>
      getProjections().catch(async (error: unknown) => {
        await logoutIfAccessDenied(error);
        throw error;
      }),
    refetchInterval: (query) => (query.state.data?.some((p) => p.state !== 'up') ? 2_000 : 15_000),
  });
}

/** Retry or skip, then the list again with the answer in it. */
export function useProjectionAction<A>(act: (name: string, argument: A) => Promise<ProjectionStatus>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ name, argument }: { name: string; argument: A }) => act(name, argument),
    onSuccess: (status) => replace(client, status),
  });
}

function replace(client: QueryClient, status: ProjectionStatus): void {
  client.setQueryData<ProjectionStatus[]>(queryKey, (list) => list?.map((p) => (p.name === status.name ? status : p)));
  void client.invalidateQueries({ queryKey });
}
