import { downloadCSV, ExportButton, useNotify } from 'react-admin';
import type { AdminPayment } from './admin-payment';
import { paymentsCsv, paymentsCsvName } from './payments-csv';

/**
 * CSV of the list as filtered and sorted now, every page of it (spec section 2):
 * `payments-{yyyy-mm-dd}.csv`. react-admin's ExportButton fetches the rows with the list's
 * filter; the exporter writes the file.
 */
export function ExportPaymentsButton() {
  const notify = useNotify();
  const exporter = (payments: AdminPayment[]) => {
    downloadCSV(paymentsCsv(payments), paymentsCsvName());
    notify('resources.payments.notifications.exported', { type: 'success' });
  };
  return <ExportButton exporter={exporter} />;
}
