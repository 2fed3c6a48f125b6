/**
 * What the charts need beyond the report itself, as pure helpers: whether a series has anything
 * to draw, and how a day or a figure reads on an axis.
 */

/** Whether any row has a non-zero value in one of `keys`: a period of zeros shows the empty state, not flat lines on bare axes. */
export function hasData<T>(rows: readonly T[], keys: readonly (keyof T & string)[]): boolean {
  return rows.some((row) => keys.some((key) => row[key] !== 0));
}

/** "Jan 31" for a UTC day ("2025-01-31"), in the console's language; the whole date, with the year, when `long`. */
export function dayLabel(day: string, intlLocale: string, long = false): string {
  const options: Intl.DateTimeFormatOptions = long ? { dateStyle: 'medium' } : { month: 'short', day: 'numeric' };
  return new Date(`${day}T00:00:00Z`).toLocaleDateString(intlLocale, { ...options, timeZone: 'UTC' });
}

/** A count in the console's language ("1,234", or Persian digits). */
export const countLabel = (value: number, intlLocale: string): string => value.toLocaleString(intlLocale);

/** "12.5%": a rate in percent, one decimal. */
export const percentLabel = (percent: number, intlLocale: string): string =>
  new Intl.NumberFormat(intlLocale, { style: 'percent', maximumFractionDigits: 1 }).format(percent / 100);

/** "+12.5%": a change in percent, signed, one decimal. */
export const changeLabel = (percent: number, intlLocale: string): string =>
  new Intl.NumberFormat(intlLocale, { style: 'percent', maximumFractionDigits: 1, signDisplay: 'exceptZero' }).format(percent / 100);
