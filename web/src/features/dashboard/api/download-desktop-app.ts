import { apiClient } from '../../../shared/api/api-client';
import { attachmentFileName } from '../../../shared/api/file-transfer';
import { installerFileName } from '../components/desktop-versions';

/** The installer's answer, headers read and body still arriving. */
export interface InstallerResponse {
  response: Response;
  /** The server's Content-Disposition name, else the default `Meshwork-Desktop-v{version}.exe`. */
  fileName: string;
}

/**
 * GET /downloads/desktop-app/{name}: the installer, fetched with the session's token so it
 * cannot be hot-linked. Answers once the headers arrive, so the caller can follow the body.
 * The server records the download.
 */
export async function fetchDesktopInstaller(version: string, signal?: AbortSignal): Promise<InstallerResponse> {
  const defaultName = installerFileName(version);
  const response = await apiClient.request<Response>(`/downloads/desktop-app/${encodeURIComponent(defaultName)}`, {
    responseType: 'stream',
    signal,
  });
  return { response, fileName: attachmentFileName(response.headers.get('Content-Disposition')) ?? defaultName };
}
