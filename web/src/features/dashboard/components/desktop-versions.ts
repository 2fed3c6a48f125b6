import type { DownloadRecord } from '@meshwork/contracts';

/** The default name of the saved installer: {product}-Desktop-v{version}.exe. */
export function installerFileName(version: string): string {
  return `Meshwork-Desktop-v${version}.exe`;
}

function versionParts(version: string): number[] {
  return version
    .trim()
    .replace(/^v/i, '')
    .split('.')
    .map((part) => Number.parseInt(part, 10) || 0);
}

/** Compares dotted versions numerically (2.0.10 is newer than 2.0.9): negative, zero or positive. */
export function compareVersions(a: string, b: string): number {
  const left = versionParts(a);
  const right = versionParts(b);
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** The newest desktop version the user has downloaded (a failed download does not count), or null. */
export function newestDesktopDownload(downloads: readonly Pick<DownloadRecord, 'kind' | 'version' | 'status'>[]): string | null {
  return downloads
    .filter((d) => d.kind === 'desktop' && d.status !== 'failed')
    .map((d) => d.version)
    .reduce<string | null>((newest, version) => (newest === null || compareVersions(version, newest) > 0 ? version : newest), null);
}

/**
 * The update banner shows only when the newest release is newer than the newest desktop
 * version the user has downloaded. Someone who never downloaded has nothing to update.
 */
export function isUpdateAvailable(
  latestVersion: string,
  downloads: readonly Pick<DownloadRecord, 'kind' | 'version' | 'status'>[],
): boolean {
  const installed = newestDesktopDownload(downloads);
  return installed !== null && compareVersions(latestVersion, installed) > 0;
}

/** Spec section 4: downloading, completed and failed have their own look; anything else is pending. */
export function downloadStatusKind(status: string): 'downloading' | 'completed' | 'failed' | 'pending' {
  return status === 'downloading' || status === 'completed' || status === 'failed' ? status : 'pending';
}

/** What a download was, for the recent list: "Meshwork Desktop v2.1.0", or a model's "tiny_model v1.0.0". */
export function downloadLabel(record: Pick<DownloadRecord, 'kind' | 'version'>): string {
  if (record.kind === 'desktop') return `Meshwork Desktop v${record.version}`;
  // Models are recorded as `name@version`; the name cannot contain '@', the version might.
  const at = record.version.indexOf('@');
  return at < 0 ? record.version : `${record.version.slice(0, at)} v${record.version.slice(at + 1)}`;
}
