/** One cell of an exported table. */
export type CsvCell = string | number | null;

/** What makes a spreadsheet read a cell as a formula when it comes first (OWASP, CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** Text that is just a number ("-12.50") is data: left as it is so spreadsheets still add it up. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;
/**
 * What could end the cell or start another: either separator (many locales' spreadsheets split
 * on `;`), a quote, a line break or a tab. Quoted, such text stays one cell, so a formula
 * starter inside it (`x;=1+1;x`) never begins a cell of its own.
 */
const ENDS_A_CELL = /[,;"\r\n\t]/;

/**
 * A CSV field (RFC 4180), the one writer of every export (the api's audit trail, the console's
 * payments, analytics and model access): text that starts like a formula gets a leading
 * apostrophe and quotes, and any field holding a separator, quote or line break is quoted
 * with its quotes doubled.
 */
export function csvField(value: CsvCell): string {
  if (value === null) return '';
  const text = String(value);
  const formula = typeof value === 'string' && FORMULA_START.test(text) && !PLAIN_NUMBER.test(text);
  const safe = formula ? `'${text}` : text;
  return formula || ENDS_A_CELL.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** Rows of cells as CSV lines, each ended by CRLF. */
export function csvRows(rows: readonly (readonly CsvCell[])[]): string {
  return rows.map((row) => `${row.map(csvField).join(',')}\r\n`).join('');
}
