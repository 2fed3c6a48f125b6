const UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB'] as const;

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

/** Spec section 9: download sizes are kept in MB and shown in GB from 1000 MB. */
export function formatMegabytes(megabytes: number): string {
  return megabytes >= 1000 ? `${(megabytes / 1000).toFixed(1)} GB` : `${megabytes} MB`;
}
