import type { DesktopDownload } from '@meshwork/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../shared/api/api-error';
import { readWithProgress } from '../../../shared/api/file-transfer';
import { notifyError, notifyFailure, notifySuccess } from '../../../shared/toast/notify';
import { fetchDesktopInstaller } from '../api/download-desktop-app';
import { desktopAppInfoQueryOptions } from '../api/get-desktop-app-info';
import { refreshDownloadHistory } from '../api/get-download-history';
import { saveBlob } from './save-file';
import { useDownloadState } from './use-download-state';

export const NO_VERSION = 'No version available for download';

/** Spec section 4's download status, with the real share of bytes received (null: size unknown). */
export type DesktopDownloadState =
  { status: 'idle' } | { status: 'downloading'; percent: number | null } | { status: 'completed' } | { status: 'failed' };

const IDLE: DesktopDownloadState = { status: 'idle' };

/** Downloads one desktop file with real progress, saves it, and records the outcome. */
export function useDesktopDownload() {
  const queryClient = useQueryClient();
  const [state, setState] = useDownloadState<DesktopDownloadState>(IDLE);

  const download = useMutation({
    mutationKey: ['downloads', 'desktop-app'],
    mutationFn: async (chosen: DesktopDownload) => {
      const { response, fileName } = await fetchDesktopInstaller(chosen);
      // A render per whole percent, not per chunk: an installer arrives in thousands of chunks.
      let shown: number | null | undefined;
      const file = await readWithProgress(response, ({ percent }) => {
        if (percent === shown) return;
        shown = percent;
        setState({ status: 'downloading', percent });
      });
      return { file, fileName };
    },
    onSuccess: ({ file, fileName }, chosen) => {
      saveBlob(file, fileName);
      setState({ status: 'completed' });
      notifySuccess(`Successfully downloaded Meshwork Desktop v${chosen.version}`);
    },
    onError: (error) => {
      setState({ status: 'failed' });
      if (error instanceof ApiError && error.status === 404) {
        // The file was withdrawn after the page loaded: show what is current now.
        notifyError(NO_VERSION, error);
        void queryClient.invalidateQueries({ queryKey: desktopAppInfoQueryOptions().queryKey });
      } else notifyFailure('Download failed. Please try again.', error);
    },
    // Failed ones are recorded too: either way the history has changed.
    onSettled: () => refreshDownloadHistory(queryClient),
  });

  function start(chosen: DesktopDownload) {
    setState({ status: 'downloading', percent: 0 });
    download.mutate(chosen);
  }

  return { start, state };
}
