import { type CsvCell, csvField } from '@meshwork/contracts';

export type { CsvCell };

/** Rows of cells as CSV text, lines ended by CRLF; each cell by the one writer in the contracts (quoted, formulas neutralised). */
export function csvLines(rows: readonly (readonly CsvCell[])[]): string {
  return rows.map((row) => row.map(csvField).join(',')).join('\r\n');
}

/** `<prefix>-2025-01-31`: today's date where the staff member is (react-admin's downloadCSV adds `.csv`). */
export function csvFileName(prefix: string, today = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${prefix}-${today.getFullYear()}-${pad(today.getMonth() + 1)}-${pad(today.getDate())}`;
}
