import { queryOptions, useQuery } from '@tanstack/react-query';
import type { InstallationGuide } from '@meshwork/contracts';
import { apiClient } from '../../../shared/api/api-client';

/** GET /downloads/installation-guide/: how to install the desktop host. Public, like the release it describes. */
export function fetchInstallationGuide(signal?: AbortSignal): Promise<InstallationGuide> {
  return apiClient.get<InstallationGuide>('/downloads/installation-guide/', { signal });
}

export function installationGuideQueryOptions() {
  return queryOptions({
    queryKey: ['downloads', 'installation-guide'],
    queryFn: ({ signal }) => fetchInstallationGuide(signal),
    staleTime: 5 * 60_000,
  });
}

export function useInstallationGuide() {
  return useQuery(installationGuideQueryOptions());
}
