const UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB'] as const;
const MEGABYTE = 1024 * 1024;

/** Spec section 9: model sizes in Bytes to TB, steps of 1024, at most 2 decimals ("1.5 GB"). */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Number.parseFloat(value.toFixed(2))} ${UNITS[unit]}`;
}

/**
 * Spec section 9: a download's size in MB, and in GB once it reaches 1000 MB (so "1000 MB"
 * never shows). The api counts bytes; MB and GB here are 1024-based, as the model sizes are.
 */
export function formatDownloadSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 MB';
  const megabytes = bytes / MEGABYTE;
  if (megabytes >= 1000) return `${(megabytes / 1024).toFixed(1)} GB`;
  if (megabytes < 0.1) return '< 0.1 MB';
  return `${megabytes.toFixed(1)} MB`;
}
