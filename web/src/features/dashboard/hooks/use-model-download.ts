import type { AvailableModel } from '@meshwork/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notifyFailure, notifySuccess } from '../../../shared/toast/notify';
import { refreshDownloadHistory } from '../api/get-download-history';
import { fetchModelFileLink } from '../api/get-model-file-link';
import { fetchModelManifest } from '../api/get-model-manifest';
import { saveFromUrl } from './save-file';
import { useDownloadState } from './use-download-state';

/** Browsers drop or merge downloads started in the same instant; a short gap keeps each one. */
const GAP_BETWEEN_FILES_MS = 400;

/** Handing a model's files to the browser: `handed` of `total` so far. */
export type ModelDownloadState =
  { status: 'idle' } | { status: 'downloading'; handed: number; total: number | null } | { status: 'completed' } | { status: 'failed' };

const IDLE: ModelDownloadState = { status: 'idle' };

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Downloads every file of a model through the browser: the manifest lists them, and each gets
 * a short-lived link that the browser saves. Resuming and verifying belong to the desktop host.
 */
export function useModelDownload(model: AvailableModel) {
  const queryClient = useQueryClient();
  const [state, setState] = useDownloadState<ModelDownloadState>(IDLE);

  const download = useMutation({
    mutationKey: ['downloads', 'model', model.name],
    mutationFn: async () => {
      const manifest = await fetchModelManifest(model.name);
      // Blocks load in part order; saving them in that order keeps a partial set usable first.
      const files = [...manifest.files].sort((a, b) => a.part_index - b.part_index);
      setState({ status: 'downloading', handed: 0, total: files.length });
      for (const [index, file] of files.entries()) {
        // Links are short-lived: each is asked for just before it is used.
        const link = await fetchModelFileLink(model.name, file.name);
        if (index > 0) await pause(GAP_BETWEEN_FILES_MS);
        saveFromUrl(link.url, file.name);
        setState({ status: 'downloading', handed: index + 1, total: files.length });
      }
      return manifest;
    },
    onSuccess: (manifest) => {
      setState({ status: 'completed' });
      const count = manifest.files.length;
      notifySuccess(`Downloading ${manifest.display_name} v${manifest.version} (${count} ${count === 1 ? 'file' : 'files'})`);
    },
    onError: (error) => {
      setState({ status: 'failed' });
      notifyFailure('Download failed. Please try again.', error);
    },
    onSettled: () => refreshDownloadHistory(queryClient),
  });

  function start() {
    setState({ status: 'downloading', handed: 0, total: null });
    download.mutate();
  }

  return { start, state };
}
