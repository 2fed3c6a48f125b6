/** One cell of an exported table. */
export type CsvCell = string | number | null;

/**
 * A CSV field (RFC 4180): quoted when it holds a comma, quote or line break, its quotes doubled.
 * Text a spreadsheet would run as a formula (=, +, -, @, tab or CR first) gets a leading
 * apostrophe, as the api's audit export does; numbers, and text that is just a number
 * ("-12.50"), are left as they are.
 */
export function csvField(value: CsvCell): string {
  if (value === null) return '';
  const text = String(value);
  const safe = typeof value === 'string' && /^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** Rows of cells as CSV text, lines ended by CRLF. */
export function csvLines(rows: readonly (readonly CsvCell[])[]): string {
  return rows.map((row) => row.map(csvField).join(',')).join('\r\n');
}

/** `<prefix>-2025-01-31`: today's date where the staff member is (react-admin's downloadCSV adds `.csv`). */
export function csvFileName(prefix: string, today = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${prefix}-${today.getFullYear()}-${pad(today.getMonth() + 1)}-${pad(today.getDate())}`;
}
