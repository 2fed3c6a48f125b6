import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';

/** The newest desktop release (spec "Desktop app info response"). */
export interface DesktopAppInfo {
  version: string;
  download_url: string;
}

/** GET /downloads/desktop-app-info/: 404 'No version available for download' until a release exists. */
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
