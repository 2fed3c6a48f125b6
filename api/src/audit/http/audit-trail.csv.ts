import type { AuditEntry } from '@meshwork/contracts';

const HEADER = [
  'Position',
  'Time',
  'Action',
  'Resource',
  'Resource ID',
  'Actor',
  'Actor ID',
  'Staff',
  'IP Address',
  'User Agent',
  'Correlation ID',
  'Details',
];

/** A CSV field: quoted when it must be, and never read by a spreadsheet as a formula. */
function field(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export const AUDIT_CSV_HEADER = `${HEADER.join(',')}\r\n`;

/** Audit entries as CSV lines (RFC 4180, CRLF), one per entry. */
export function auditCsvLines(entries: AuditEntry[]): string {
  return entries
    .map((e) =>
      [
        String(e.position),
        e.timestamp,
        e.action,
        e.resource,
        e.resource_id,
        e.actor?.email ?? 'system',
        e.actor?.id ?? '',
        e.actor ? (e.actor.is_staff ? 'Yes' : 'No') : '',
        e.actor?.ip_address ?? '',
        e.actor?.user_agent ?? '',
        e.correlation_id,
        JSON.stringify(e.details),
      ]
        .map(field)
        .join(','),
    )
    .map((line) => `${line}\r\n`)
    .join('');
}
