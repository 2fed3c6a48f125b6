import { Download } from 'lucide-react';
import { Spinner } from '../../../shared/ui/spinner';
import { isNoReleaseError, useDesktopAppInfo } from '../../dashboard/api/get-desktop-app-info';
import { arrangeDownloads, platformName, useVisitorPlatform } from '../platform/visitor-platform';

const NO_RELEASE_YET = 'No version is available for download yet.';
const LOAD_FAILED = 'The latest version could not be loaded. Please try again later.';

/** The newest version for the visitor's platform, for everyone: visitors see what they would get before signing up. */
export function LatestRelease() {
  const info = useDesktopAppInfo();
  const platform = useVisitorPlatform();
  const main = info.data ? arrangeDownloads(info.data.downloads, platform).main : null;
  const unavailable = platform === 'mac' ? 'macOS' : platformName(platform);
  const platforms = [...new Set(info.data?.downloads.map((d) => platformName(d.platform)))].join(' and ');
  return (
    <p className="mt-6 inline-flex items-center gap-2 rounded-full border border-brand-200 bg-white/70 px-3 py-1 text-sm font-medium text-brand-700 dark:border-brand-900 dark:bg-slate-900/70 dark:text-brand-300">
      {info.isPending ? <Spinner /> : <Download className="size-4" aria-hidden />}
      {info.isPending && 'Checking the latest version…'}
      {main && `Latest version ${main.version} for ${platformName(main.platform)}`}
      {info.data &&
        !main &&
        `Latest version ${info.data.version} for ${platforms}${unavailable ? ` (not yet available for ${unavailable})` : ''}`}
      {/* A missing release is a normal state before launch, and a failed check is not worth a toast on a marketing page. */}
      {info.isError && (isNoReleaseError(info.error) ? NO_RELEASE_YET : LOAD_FAILED)}
    </p>
  );
}
