import type { DownloadLink } from '@meshwork/contracts';
import { apiClient } from '../../../shared/api/api-client';

/**
 * GET /models/{name}/files/{file}/download/: a short-lived URL for one file, which honours
 * HTTP Range and saves as an attachment. Asking for it is what records the download.
 */
export function fetchModelFileLink(model: string, file: string, signal?: AbortSignal): Promise<DownloadLink> {
  return apiClient.get<DownloadLink>(`/models/${encodeURIComponent(model)}/files/${encodeURIComponent(file)}/download/`, { signal });
}
