import type { DesktopDownload, DesktopPlatform, DownloadRecord, PlanInfo } from '@meshwork/contracts';
import { ArrowUpCircle, CircleCheck, CircleX, Download, Lock } from 'lucide-react';
import { useEffect } from 'react';
import { notifyFailure } from '../../../shared/toast/notify';
import { Button, LinkButton } from '../../../shared/ui/button';
import { RegionCard } from '../../../shared/ui/region-card';
import { Spinner } from '../../../shared/ui/spinner';
import { useInstallationGuide } from '../../download/api/get-installation-guide';
import { PlatformSteps } from '../../download/components/install-steps';
import {
  arrangeDownloads,
  mainButtonLabel,
  platformName,
  type VisitorPlatform,
  useVisitorPlatform,
} from '../../download/platform/visitor-platform';
import { isNoReleaseError, useDesktopAppInfo } from '../api/get-desktop-app-info';
import { NO_VERSION, useDesktopDownload, type DesktopDownloadState } from '../hooks/use-desktop-download';
import { isUpdateAvailable } from './desktop-versions';
import { DownloadProgressBar } from './download-progress-bar';
import { formatFileSize } from './file-size';

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

/** What the panel says above the button: which file is the visitor's, or why there is none. */
function Offer({ main, platform }: { main: DesktopDownload | null; platform: VisitorPlatform }) {
  const text = 'text-sm text-slate-600 dark:text-slate-400';
  if (main)
    return (
      <p className={text}>
        Meshwork Desktop v{main.version} for {platformName(main.platform)}. Install it on every machine that joins your network.
      </p>
    );
  if (platform === 'mac')
    return (
      <p className={text}>
        Meshwork Desktop is not yet available for macOS. It runs on Windows and Linux: download it for those computers below.
      </p>
    );
  const name = platformName(platform);
  if (name) return <p className={text}>Meshwork Desktop is not yet available for {name}. The files below are for other platforms.</p>;
  return <p className={text}>Choose the file for the computer you will install Meshwork Desktop on: Windows or Linux.</p>;
}

/** The installation steps (from the api's guide) for the platforms of the files offered: the visitor's, else each listed. */
function InstallStepsFor({ platforms }: { platforms: readonly DesktopPlatform[] }) {
  const guide = useInstallationGuide();
  const steps = guide.data?.platforms.filter((p) => platforms.includes(p.platform)) ?? [];
  return steps.map((p) => <PlatformSteps key={p.platform} guide={p} />);
}

/**
 * The desktop app for plans that include it: the file for the visitor's platform first (its
 * Linux package or Windows installer), the other files below, with real progress, the
 * platform's install steps, and an update banner when a newer version than the user's last
 * download is out. With nothing to download there is no button, and the panel says so.
 */
export function DesktopDownloadPanel({
  downloads,
  installSteps = true,
}: {
  downloads: readonly DownloadRecord[] | undefined;
  /** Off where the page shows the installation guide beside the panel. */
  installSteps?: boolean;
}) {
  const info = useDesktopAppInfo();
  const platform = useVisitorPlatform();
  const { start, state } = useDesktopDownload();
  const downloading = state.status === 'downloading';
  const noRelease = info.isError && isNoReleaseError(info.error);

  useEffect(() => {
    if (info.isError && !isNoReleaseError(info.error)) notifyFailure(LOAD_FAILED, info.error);
  }, [info.isError, info.error]);

  const { main, others } = info.data ? arrangeDownloads(info.data.downloads, platform) : { main: null, others: [] };
  const stepPlatforms = main ? [main.platform] : [...new Set(others.map((file) => file.platform))];

  return (
    <RegionCard title="Desktop App">
      {info.isPending && <Spinner className="size-5" />}
      {info.isError && (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {noRelease ? `${NO_VERSION}. The desktop app has not been published yet: please check back later.` : LOAD_FAILED}
        </p>
      )}
      {info.data && (
        <>
          {downloads && main && isUpdateAvailable(main.version, downloads) && (
            <p
              role="status"
              className="mb-4 flex gap-2 rounded-lg bg-brand-50 p-3 text-sm text-brand-900 dark:bg-brand-900/40 dark:text-brand-100"
            >
              <ArrowUpCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
              Version {main.version} is available. Download it to update your desktop app.
            </p>
          )}
          <Offer main={main} platform={platform} />
          {main && (
            <Button className="mt-4" onClick={() => start(main)} disabled={downloading}>
              {downloading ? <Spinner /> : <Download className="size-4" aria-hidden />}
              {downloading ? 'Downloading…' : mainButtonLabel(main)}
            </Button>
          )}
          <DownloadStatus state={state} />
          {others.length > 0 && (
            <section aria-label="Other downloads" className="mt-6">
              <h3 className="text-sm font-semibold text-slate-900 dark:text-white">{main ? 'Other downloads' : 'Downloads'}</h3>
              <ul className="mt-2 space-y-2">
                {others.map((file) => (
                  <li key={file.format} className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600 dark:text-slate-400">
                    <Button variant="secondary" size="sm" onClick={() => start(file)} disabled={downloading}>
                      <Download className="size-3.5" aria-hidden />
                      {file.label}
                    </Button>
                    <span>
                      v{file.version} · {formatFileSize(file.size)}
                    </span>
                  </li>
                ))}
              </ul>
            </section>
          )}
          {installSteps && <InstallStepsFor platforms={stepPlatforms} />}
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
  installSteps,
}: {
  planInfo: Pick<PlanInfo, 'plan_name' | 'download_info'>;
  downloads: readonly DownloadRecord[] | undefined;
  installSteps?: boolean;
}) {
  return planInfo.download_info.download_access ? (
    <DesktopDownloadPanel downloads={downloads} installSteps={installSteps} />
  ) : (
    <UpgradeRequiredPanel planName={planInfo.plan_name} />
  );
}
