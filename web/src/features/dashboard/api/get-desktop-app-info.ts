import type { DesktopAppInfo } from '@contracts/catalog/catalog.contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';

/** GET /downloads/desktop-app-info/: the newest release; 404 'No version available for download' until one exists. */
export function fetchDesktopAppInfo(signal?: AbortSignal): Promise<DesktopAppInfo> {
  return apiClient.get<DesktopAppInfo>('/downloads/desktop-app-info/', { signal });
}

export function desktopAppInfoQueryOptions() {
  return queryOptions({
    queryKey: ['downloads', 'desktop-app-info'],
    queryFn: ({ signal }) => fetchDesktopAppInfo(signal),
    staleTime: 5 * 60_000,
  });
}

/** Only asked for when the plan may download (`enabled`). */
export function useDesktopAppInfo({ enabled }: { enabled: boolean }) {
  return useQuery({ ...desktopAppInfoQueryOptions(), enabled });
}
