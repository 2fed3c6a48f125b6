import type { DownloadHistory } from '@meshwork/contracts';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';

export const downloadHistoryQueryKey = ['downloads', 'history'] as const;

/** GET /downloads/history/: the user's desktop and model downloads, newest first, with counts. */
export function fetchDownloadHistory(signal?: AbortSignal): Promise<DownloadHistory> {
  return apiClient.get<DownloadHistory>('/downloads/history/', { signal });
}

export function downloadHistoryQueryOptions() {
  return queryOptions({ queryKey: downloadHistoryQueryKey, queryFn: ({ signal }) => fetchDownloadHistory(signal) });
}

export function useDownloadHistory() {
  return useQuery(downloadHistoryQueryOptions());
}

/** How long after a download the history is read a second time. */
const HISTORY_SETTLE_MS = 1500;

/**
 * The server records every download it serves: after one, the history and the update banner
 * read it again. The record reaches the history's read model a moment after the download
 * itself, so it is read once now and once shortly after.
 */
export function refreshDownloadHistory(queryClient: QueryClient): void {
  const refresh = () => void queryClient.invalidateQueries({ queryKey: downloadHistoryQueryKey });
  refresh();
  setTimeout(refresh, HISTORY_SETTLE_MS);
}
