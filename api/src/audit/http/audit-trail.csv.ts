import { type AuditEntry, csvRows } from '@meshwork/contracts';

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

export const AUDIT_CSV_HEADER = `${HEADER.join(',')}\r\n`;

/** Audit entries as CSV lines (RFC 4180, CRLF), one per entry, written by the one CSV writer (see csv.ts in the contracts). */
export function auditCsvLines(entries: AuditEntry[]): string {
  return csvRows(
    entries.map((e) => [
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
    ]),
  );
}
