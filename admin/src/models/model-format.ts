import { MODEL_MANIFEST_FILE, type ModelStatus } from '@meshwork/contracts';

const UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB'] as const;

/**
 * A size in bytes as the model screen shows it (spec section 9): Bytes, KB, MB, GB or TB in
 * steps of 1024, at most two decimals, trailing zeros dropped ("10 GB", "1.5 KB").
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  let value = bytes;
  let unit = 0;
  // Divide rather than take logarithms: 1024^4 must come out as "1 TB", not "1024 GB".
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${Number.parseFloat(value.toFixed(2))} ${UNITS[unit]}`;
}

/** A desktop release's size, held in MB: GB from 1000 MB up (spec section 9). */
export function formatMegabytes(megabytes: number): string {
  return megabytes >= 1000 ? `${Number.parseFloat((megabytes / 1024).toFixed(2))} GB` : `${Number.parseFloat(megabytes.toFixed(1))} MB`;
}

/** Date and time, short (spec section 9: en-US short date with hour and minute; Persian in Persian). */
export function formatDateTime(iso: string, intlLocale: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return new Intl.DateTimeFormat(intlLocale, { dateStyle: 'short', timeStyle: 'short' }).format(date);
}

/** How a status looks (spec section 4): active green, processing amber, inactive red; anything else neutral grey. */
export type StatusTone = 'success' | 'warning' | 'error' | 'neutral';

const tones: Record<ModelStatus, StatusTone> = { active: 'success', processing: 'warning', inactive: 'error' };

export function toneOf(status: string): StatusTone {
  return Object.hasOwn(tones, status) ? tones[status as ModelStatus] : 'neutral';
}

/**
 * Whether a model's files are a Meshwork model package (`model.json` beside its blocks): its
 * file type is the package, not the extension of whichever file comes first.
 */
export const isModelPackage = (files: readonly { name: string }[]): boolean =>
  files.some((file) => file.name === MODEL_MANIFEST_FILE) && files.some((file) => file.name.toLowerCase().endsWith('.onnx'));

/** The first characters of a SHA-256, as the upload list and the details show it (spec section 9). */
export const shortChecksum = (sha256: string): string => sha256.slice(0, 8);
