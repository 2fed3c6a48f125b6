/** A past download of the desktop app (spec "Download record"); fileSize in MB. */
export interface DownloadRecord {
  id: string;
  version: string;
  downloadDate: string;
  status: string;
  fileSize: number;
}

/** The default name of the saved installer: {product}-Desktop-v{version}.exe. */
export function installerFileName(version: string): string {
  return `Meshwork-Desktop-v${version}.exe`;
}

function versionParts(version: string): number[] {
  return version
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

/**
 * The update banner shows only when the newest release is newer than anything the user has
 * downloaded. Someone who never downloaded has nothing to update.
 */
export function isUpdateAvailable(latestVersion: string, downloads: readonly Pick<DownloadRecord, 'version'>[]): boolean {
  if (downloads.length === 0) return false;
  const newestDownloaded = downloads.map((d) => d.version).reduce((a, b) => (compareVersions(a, b) >= 0 ? a : b));
  return compareVersions(latestVersion, newestDownloaded) > 0;
}

/** Spec section 4: downloading, completed and failed have their own look; anything else is pending. */
export function downloadStatusKind(status: string): 'downloading' | 'completed' | 'failed' | 'pending' {
  return status === 'downloading' || status === 'completed' || status === 'failed' ? status : 'pending';
}
