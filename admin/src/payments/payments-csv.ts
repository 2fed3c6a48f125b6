import { csvFileName, csvLines } from '../app/csv';
import type { AdminPayment } from './admin-payment';

/**
 * The export's columns. The file is data for spreadsheets and scripts, so its header is the
 * same in every console language.
 */
const columns: [header: string, value: (payment: AdminPayment) => string | number | null][] = [
  ['ID', (p) => p.id],
  ['User email', (p) => p.userEmail],
  ['User name', (p) => p.userName],
  ['Plan', (p) => p.planName],
  ['Amount', (p) => p.amount.toFixed(2)],
  ['Currency', (p) => p.currency],
  ['Status', (p) => p.status],
  ['Payment method', (p) => p.paymentMethod],
  ['Transaction ID', (p) => p.transactionId],
  ['Created', (p) => p.createdDate],
  ['Processed', (p) => p.processedDate],
  ['Refunded amount', (p) => p.refundAmount.toFixed(2)],
  ['Refund reason', (p) => p.refundReason],
];

/** The payments as CSV: a header row, then one row per payment. */
export function paymentsCsv(payments: AdminPayment[]): string {
  return csvLines([columns.map(([header]) => header), ...payments.map((payment) => columns.map(([, value]) => value(payment)))]);
}

/** `payments-2025-01-31`: today's date where the staff member is (downloadCSV adds `.csv`). */
export function paymentsCsvName(today = new Date()): string {
  return csvFileName('payments', today);
}
