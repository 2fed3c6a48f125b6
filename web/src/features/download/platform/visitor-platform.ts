import {
  DESKTOP_FORMAT_ORDER,
  DESKTOP_FORMATS,
  DESKTOP_PLATFORM_NAMES,
  type DesktopDownload,
  type DesktopPlatform,
} from '@meshwork/contracts';
import { useMemo } from 'react';

/** The visitor's computer, as far as the desktop app is concerned: one it is built for, a Mac, or something else (a phone, say). */
export type VisitorPlatform = DesktopPlatform | 'mac' | 'other';

/** What the browser says about itself: User-Agent Client Hints where it has them, else the user agent. */
export interface BrowserIdentity {
  userAgent: string;
  userAgentData?: { platform?: string } | null;
}

/** The platform a browser runs on: the client hint's platform first ("Windows", "Linux", "macOS"), else the user agent. */
export function detectPlatform({ userAgent, userAgentData }: BrowserIdentity): VisitorPlatform {
  const hinted = userAgentData?.platform?.trim().toLowerCase();
  if (hinted) {
    if (hinted === 'windows') return 'windows';
    if (hinted === 'linux') return 'linux';
    if (hinted === 'macos') return 'mac';
    return 'other'; // Android, Chrome OS, iOS...
  }
  // Android and Chrome OS name Linux in their user agent, and iPads can name Macintosh: phones and tablets first.
  if (/Android|iPhone|iPad|iPod|CrOS/i.test(userAgent)) return 'other';
  if (/Windows/i.test(userAgent)) return 'windows';
  if (/Macintosh|Mac OS X/i.test(userAgent)) return 'mac';
  if (/Linux|X11/i.test(userAgent)) return 'linux';
  return 'other';
}

/** This browser's platform (the page renders in a browser; no navigator means nothing to detect). */
export function visitorPlatform(): VisitorPlatform {
  if (typeof navigator === 'undefined') return 'other';
  const { userAgent, userAgentData } = navigator as Navigator & { userAgentData?: { platform?: string } };
  return detectPlatform({ userAgent, userAgentData });
}

/** The visitor's platform, read once per component (it does not change while the page is open). */
export function useVisitorPlatform(): VisitorPlatform {
  return useMemo(() => visitorPlatform(), []);
}

const parts = (version: string) => version.split('.').map((part) => Number.parseInt(part, 10) || 0);

/** Newer version first; within a version, the installer or package before the archive. */
function better(a: DesktopDownload, b: DesktopDownload): number {
  const [x, y] = [parts(a.version), parts(b.version)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (y[i] ?? 0) - (x[i] ?? 0);
  return DESKTOP_FORMAT_ORDER.indexOf(a.format) - DESKTOP_FORMAT_ORDER.indexOf(b.format);
}

/** The downloads as the page offers them: the visitor's best file as the main one (if their platform has one), the rest below. */
export function arrangeDownloads(
  downloads: readonly DesktopDownload[],
  platform: VisitorPlatform,
): { main: DesktopDownload | null; others: DesktopDownload[] } {
  const mine = downloads.filter((d) => d.platform === platform).sort(better);
  const main = mine[0] ?? null;
  return { main, others: downloads.filter((d) => d !== main) };
}

/** "Download for Linux (.deb)". */
export function mainButtonLabel(download: DesktopDownload): string {
  return `Download for ${DESKTOP_PLATFORM_NAMES[download.platform]} (${DESKTOP_FORMATS[download.format].extension})`;
}

/** The platform's name for sentences; null for one the app is not built for. */
export function platformName(platform: VisitorPlatform): string | null {
  return platform === 'windows' || platform === 'linux' ? DESKTOP_PLATFORM_NAMES[platform] : null;
}
