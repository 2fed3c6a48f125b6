import DownloadIcon from '@mui/icons-material/Download';
import { Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Button, Labeled, useNotify, useRecordContext, useTranslate } from 'react-admin';
import type { AdminPayment } from './admin-payment';
import { downloadInvoicePdf, paymentInvoices } from './invoice-api';

/** A payment's invoice and credit notes, each a PDF to download (staff and auditors alike). */
export function PaymentInvoices() {
  const payment = useRecordContext<AdminPayment>();
  const translate = useTranslate();
  const notify = useNotify();
  const invoices = useQuery({
    queryKey: ['admin-panel', 'invoices', payment?.id],
    queryFn: () => paymentInvoices(String(payment!.id)),
    enabled: Boolean(payment),
  });
  if (!payment) return null;
  return (
    <Labeled label="resources.payments.invoices.title">
      <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
        {invoices.data?.length === 0 && <Typography variant="body2">{translate('resources.payments.invoices.none')}</Typography>}
        {invoices.data?.map((invoice) => (
          <Button
            key={invoice.id}
            label={translate('resources.payments.invoices.download', { number: invoice.number })}
            onClick={() =>
              downloadInvoicePdf(invoice).catch(() => notify('resources.payments.invoices.download_failed', { type: 'error' }))
            }
          >
            <DownloadIcon />
          </Button>
        ))}
      </Stack>
    </Labeled>
  );
}
