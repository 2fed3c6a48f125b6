import type { Invoice } from '@meshwork/contracts';
import { Download } from 'lucide-react';
import { useState } from 'react';
import { formatDay } from '../../../shared/format/account-format';
import { formatMoney } from '../../../shared/format/billing-format';
import { notifyFailure } from '../../../shared/toast/notify';
import { Button } from '../../../shared/ui/button';
import { RegionCard } from '../../../shared/ui/region-card';
import { Spinner } from '../../../shared/ui/spinner';
import { downloadInvoice, useInvoices } from '../api/invoices';

const KIND = { invoice: 'Invoice', credit_note: 'Credit note' } as const;

/** Every invoice and credit note, newest first, each a PDF to download. `expected`: completed payments. */
export function InvoiceList({ expected }: { expected: number }) {
  const invoices = useInvoices(expected);
  const [downloading, setDownloading] = useState<string | null>(null);

  const download = async (invoice: Invoice) => {
    setDownloading(invoice.id);
    try {
      await downloadInvoice(invoice);
    } catch (error) {
      notifyFailure(`Could not download ${invoice.number}`, error);
    } finally {
      setDownloading(null);
    }
  };

  const list = invoices.data ?? [];
  const issuing = list.filter((i) => i.kind === 'invoice').length < expected;
  return (
    <RegionCard title="Invoices">
      {invoices.isPending && <Spinner />}
      {invoices.error && <p className="text-sm text-red-600">Failed to load your invoices.</p>}
      {invoices.data && list.length === 0 && !issuing && <p className="text-sm text-slate-600 dark:text-slate-400">No invoices yet.</p>}
      {invoices.data && issuing && (
        <p role="status" className="mb-3 text-sm text-slate-600 dark:text-slate-400">
          Your latest invoice is being issued…
        </p>
      )}
      {list.length > 0 && (
        <table className="w-full text-sm" aria-label="Invoices">
          <thead>
            <tr className="text-left text-slate-500 dark:text-slate-400">
              <th scope="col" className="pb-2 font-medium">
                Number
              </th>
              <th scope="col" className="pb-2 font-medium">
                Date
              </th>
              <th scope="col" className="pb-2 font-medium">
                Kind
              </th>
              <th scope="col" className="pb-2 text-right font-medium">
                Amount
              </th>
              <th scope="col" className="pb-2 text-right font-medium">
                <span className="sr-only">Download</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {list.map((invoice) => (
              <tr key={invoice.id}>
                <td className="py-3 font-medium text-slate-900 dark:text-white">{invoice.number}</td>
                <td className="py-3 text-slate-600 dark:text-slate-400">{formatDay(invoice.issued_at)}</td>
                <td className="py-3 text-slate-600 dark:text-slate-400">
                  {KIND[invoice.kind]}
                  {invoice.credits_number && <span className="block text-xs">for {invoice.credits_number}</span>}
                </td>
                <td className="py-3 text-right text-slate-900 dark:text-white">{formatMoney(invoice.total)}</td>
                <td className="py-3 text-right">
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Download ${invoice.number} (PDF)`}
                    disabled={downloading === invoice.id}
                    onClick={() => void download(invoice)}
                  >
                    {downloading === invoice.id ? <Spinner /> : <Download className="size-4" aria-hidden />} PDF
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </RegionCard>
  );
}
