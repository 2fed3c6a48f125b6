import { mutationOptions, useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';
import { installerFileName } from '../components/desktop-versions';

export interface DownloadedInstaller {
  file: Blob;
  fileName: string;
}

/** GET /downloads/desktop-app/{name}: the installer, fetched with the session's token so it cannot be hot-linked. */
export async function downloadDesktopApp(version: string): Promise<DownloadedInstaller> {
  const fileName = installerFileName(version);
  const file = await apiClient.request<Blob>(`/downloads/desktop-app/${encodeURIComponent(fileName)}`, { responseType: 'blob' });
  return { file, fileName };
}

export function downloadDesktopAppMutationOptions() {
  return mutationOptions({ mutationKey: ['downloads', 'desktop-app'], mutationFn: downloadDesktopApp });
}

export function useDownloadDesktopApp() {
  return useMutation(downloadDesktopAppMutationOptions());
}
