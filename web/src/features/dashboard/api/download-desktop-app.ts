import type { DesktopDownload } from '@meshwork/contracts';
import { apiClient } from '../../../shared/api/api-client';
import { attachmentFileName } from '../../../shared/api/file-transfer';

/** The file's answer, headers read and body still arriving. */
export interface InstallerResponse {
  response: Response;
  /** The server's Content-Disposition name, else the one the download was listed under. */
  fileName: string;
}

/**
 * GET /downloads/desktop-app/{name}: one of the desktop files (its extension says which),
 * fetched with the session's token so it cannot be hot-linked. Answers once the headers
 * arrive, so the caller can follow the body. The server records the download.
 */
export async function fetchDesktopInstaller(
  download: Pick<DesktopDownload, 'file_name'>,
  signal?: AbortSignal,
): Promise<InstallerResponse> {
  const response = await apiClient.request<Response>(`/downloads/desktop-app/${encodeURIComponent(download.file_name)}`, {
    responseType: 'stream',
    signal,
  });
  return { response, fileName: attachmentFileName(response.headers.get('Content-Disposition')) ?? download.file_name };
}
