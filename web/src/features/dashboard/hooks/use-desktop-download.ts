import { useEffect, useRef, useState } from 'react';
import { notifyFailure, notifySuccess } from '../../../shared/toast/notify';
import { useDownloadDesktopApp } from '../api/download-desktop-app';

/** Spec section 4: the bar creeps to 95 % while the file arrives (the page cannot know its progress), then 100, then clears. */
const SIMULATED_CEILING = 95;
const STEP = 5;
const TICK_MS = 200;
const CLEAR_AFTER_MS = 2000;

function saveFile(file: Blob, fileName: string): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // The click only queues the download; revoking at once can cancel it in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Downloads the installer for `version` and saves it; `progress` is null when idle. */
export function useDesktopDownload() {
  const download = useDownloadDesktopApp();
  const [progress, setProgress] = useState<number | null>(null);
  const ticker = useRef<ReturnType<typeof setInterval> | undefined>(undefined);

  useEffect(() => () => clearInterval(ticker.current), []);
  useEffect(() => {
    if (progress !== 100) return;
    const timer = setTimeout(() => setProgress(null), CLEAR_AFTER_MS);
    return () => clearTimeout(timer);
  }, [progress]);

  function start(version: string) {
    setProgress(0);
    ticker.current = setInterval(() => setProgress((p) => (p === null ? p : Math.min(p + STEP, SIMULATED_CEILING))), TICK_MS);
    download.mutate(version, {
      onSuccess: ({ file, fileName }) => {
        clearInterval(ticker.current);
        saveFile(file, fileName);
        setProgress(100);
        notifySuccess(`Successfully downloaded Meshwork Desktop v${version}`);
      },
      onError: (error) => {
        clearInterval(ticker.current);
        setProgress(null);
        notifyFailure('Download failed. Please try again.', error);
      },
    });
  }

  return { start, progress, downloading: download.isPending };
}
