import type { DesktopAppInfo } from '@meshwork/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';
import { ApiError } from '../../../shared/api/api-error';

/**
 * GET /downloads/desktop-app-info/: every desktop file available now (`downloads`: Windows and
 * Linux, each a staff release's or the installation's own build); 404 'No version available
 * for download' only when there is none at all. Public: a visitor asks without a token, a
 * signed-in user with theirs. The page picks the visitor's file itself (see visitor-platform.ts).
 */
export function fetchDesktopAppInfo(signal?: AbortSignal): Promise<DesktopAppInfo> {
  return apiClient.get<DesktopAppInfo>('/downloads/desktop-app-info/', { signal });
}

/** Nothing to download answers 404: an expected state, not a failure worth a toast. */
export const isNoReleaseError = (error: unknown): boolean => error instanceof ApiError && error.status === 404;

export function desktopAppInfoQueryOptions() {
  return queryOptions({
    queryKey: ['downloads', 'desktop-app-info'],
    queryFn: ({ signal }) => fetchDesktopAppInfo(signal),
    staleTime: 5 * 60_000,
  });
}

export function useDesktopAppInfo() {
  return useQuery(desktopAppInfoQueryOptions());
}
