import type { DownloadRecord, PlanInfo } from '@meshwork/contracts';
import { ArrowUpCircle, CircleCheck, CircleX, Download, Lock } from 'lucide-react';
import { useEffect } from 'react';
import { notifyError, notifyFailure } from '../../../shared/toast/notify';
import { Button, LinkButton } from '../../../shared/ui/button';
import { RegionCard } from '../../../shared/ui/region-card';
import { Spinner } from '../../../shared/ui/spinner';
import { isNoReleaseError, useDesktopAppInfo } from '../api/get-desktop-app-info';
import { NO_VERSION, useDesktopDownload, type DesktopDownloadState } from '../hooks/use-desktop-download';
import { isUpdateAvailable } from './desktop-versions';
import { DownloadProgressBar } from './download-progress-bar';

const LOAD_FAILED = 'Failed to load download information';

function DownloadStatus({ state }: { state: DesktopDownloadState }) {
  if (state.status === 'downloading')
    return (
      <>
        <DownloadProgressBar label="Download progress" percent={state.percent} />
        <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">
          {state.percent === null ? 'Downloading…' : `Downloading… ${state.percent}%`}
        </p>
      </>
    );
  if (state.status === 'completed')
    return (
      <>
        <DownloadProgressBar label="Download progress" percent={100} />
        <p className="mt-2 flex items-center gap-1 text-xs text-green-700 dark:text-green-400">
          <CircleCheck className="size-3.5" aria-hidden /> Download complete
        </p>
      </>
    );
  if (state.status === 'failed')
    return (
      <p className="mt-4 flex items-center gap-1 text-xs text-red-700 dark:text-red-400">
        <CircleX className="size-3.5" aria-hidden /> Download failed. Please try again.
      </p>
    );
  return null;
}

/**
 * The desktop app for plans that include it: the newest release, its download with real
 * progress, and an update banner when the release is newer than the user's last download.
 */
export function DesktopDownloadPanel({ downloads }: { downloads: readonly DownloadRecord[] | undefined }) {
  const info = useDesktopAppInfo();
  const { start, state } = useDesktopDownload();
  const downloading = state.status === 'downloading';
  const noRelease = info.isError && isNoReleaseError(info.error);

  useEffect(() => {
    if (info.isError && !isNoReleaseError(info.error)) notifyFailure(LOAD_FAILED, info.error);
  }, [info.isError, info.error]);

  // With no release known, ask again first: one may have been published since the page loaded.
  async function download() {
    const version = info.data?.version ?? (await info.refetch()).data?.version;
    if (version) start(version);
    else notifyError(NO_VERSION);
  }

  const button = (
    <Button className="mt-4" onClick={() => void download()} disabled={downloading || info.isFetching}>
      {downloading ? <Spinner /> : <Download className="size-4" aria-hidden />}
      {downloading ? 'Downloading…' : 'Download for Windows'}
    </Button>
  );

  return (
    <RegionCard title="Desktop App">
      {info.isPending && <Spinner className="size-5" />}
      {info.isError && (
        <>
          <p className="text-sm text-slate-600 dark:text-slate-400">{noRelease ? NO_VERSION : LOAD_FAILED}</p>
          {noRelease && button}
        </>
      )}
      {info.data && (
        <>
          {downloads && isUpdateAvailable(info.data.version, downloads) && (
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
          {button}
          <DownloadStatus state={state} />
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

/**
 * The desktop app as the plan allows it: the download when the plan includes it, else the way
 * to a plan that does. The dashboard and the /download page show the same choice.
 */
export function DesktopAppPanel({
  planInfo,
  downloads,
}: {
  planInfo: Pick<PlanInfo, 'plan_name' | 'download_info'>;
  downloads: readonly DownloadRecord[] | undefined;
}) {
  return planInfo.download_info.download_access ? (
    <DesktopDownloadPanel downloads={downloads} />
  ) : (
    <UpgradeRequiredPanel planName={planInfo.plan_name} />
  );
}
