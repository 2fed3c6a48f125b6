import { ArrowUpCircle, Download, Lock } from 'lucide-react';
import { useEffect } from 'react';
import { ApiError } from '../../../shared/api/api-error';
import { notifyFailure } from '../../../shared/toast/notify';
import { Button, LinkButton } from '../../../shared/ui/button';
import { RegionCard } from '../../../shared/ui/region-card';
import { Spinner } from '../../../shared/ui/spinner';
import { useDesktopAppInfo } from '../api/get-desktop-app-info';
import { useDesktopDownload } from '../hooks/use-desktop-download';
import { isUpdateAvailable, type DownloadRecord } from './desktop-versions';

const NO_VERSION = 'No version available for download';
const LOAD_FAILED = 'Failed to load download information';

/** No release yet answers 404: an expected state, not a failure worth a toast. */
const isNoRelease = (error: unknown) => error instanceof ApiError && error.status === 404;

/** The desktop app for plans that include it: the newest release, its download, and an update banner. */
export function DesktopDownloadPanel({ recentDownloads }: { recentDownloads: readonly DownloadRecord[] }) {
  const info = useDesktopAppInfo({ enabled: true });
  const { start, progress, downloading } = useDesktopDownload();

  useEffect(() => {
    if (info.isError && !isNoRelease(info.error)) notifyFailure(LOAD_FAILED, info.error);
  }, [info.isError, info.error]);

  return (
    <RegionCard title="Desktop App">
      {info.isPending && <Spinner className="size-5" />}
      {info.isError && <p className="text-sm text-slate-600 dark:text-slate-400">{isNoRelease(info.error) ? NO_VERSION : LOAD_FAILED}</p>}
      {info.data && (
        <>
          {isUpdateAvailable(info.data.version, recentDownloads) && (
            <p
              role="status"
              className="mb-4 flex gap-2 rounded-lg bg-brand-50 p-3 text-sm text-brand-900 dark:bg-brand-900/40 dark:text-brand-100"
            >
              <ArrowUpCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
              Version {info.data.version} is available. Download it to update your desktop app.
            </p>
          )}
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Meshwork Desktop v{info.data.version} for Windows. Install it on every machine that joins your network.
          </p>
          <Button className="mt-4" onClick={() => start(info.data.version)} disabled={downloading}>
            {downloading ? <Spinner /> : <Download className="size-4" aria-hidden />}
            {downloading ? 'Downloading…' : 'Download for Windows'}
          </Button>
          {progress !== null && (
            <div
              role="progressbar"
              aria-label="Download progress"
              aria-valuenow={progress}
              aria-valuemin={0}
              aria-valuemax={100}
              className="mt-4 h-2 overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800"
            >
              <div className="h-full bg-brand-600 transition-all dark:bg-brand-400" style={{ width: `${progress}%` }} />
            </div>
          )}
        </>
      )}
    </RegionCard>
  );
}

/** In place of the download for plans without desktop access. */
export function UpgradeRequiredPanel({ planName }: { planName: string }) {
  return (
    <RegionCard title="Upgrade Required">
      <p className="flex gap-2 text-sm text-slate-600 dark:text-slate-400">
        <Lock className="mt-0.5 size-4 shrink-0" aria-hidden />
        The desktop app is not included in the {planName} plan. Upgrade to download it and run models across your devices.
      </p>
      <LinkButton to="/pricing" className="mt-4">
        View Plans
      </LinkButton>
    </RegionCard>
  );
}
