import type { AdminInvoice } from '@meshwork/contracts';
import { authorizedFetch, refreshSession } from '../auth/http-client';
import { API_BASE } from '../auth/site-urls';
import { tokens } from '../auth/tokens';

const INVOICES = `${API_BASE}/admin-panel/invoices`;

/** GET /admin-panel/invoices/?payment_id=: a payment's invoice and credit notes, newest first. */
export async function paymentInvoices(paymentId: string): Promise<AdminInvoice[]> {
  return (await authorizedFetch(`${INVOICES}/?payment_id=${encodeURIComponent(paymentId)}`)).json as AdminInvoice[];
}

/**
 * GET /admin-panel/invoices/{id}/pdf with the staff member's token (refreshed once on a 401),
 * handed to the browser's downloads under the invoice's number.
 */
export async function downloadInvoicePdf(invoice: Pick<AdminInvoice, 'id' | 'number'>): Promise<void> {
  const get = () =>
    fetch(`${INVOICES}/${encodeURIComponent(invoice.id)}/pdf`, { headers: { Authorization: `Bearer ${tokens.getAccess() ?? ''}` } });
  let response = await get();
  if (response.status === 401 && (await refreshSession())) response = await get();
  if (!response.ok) throw new Error(`invoice download failed: ${response.status}`);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `${invoice.number}.pdf`;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The click only queues the download; revoking at once can cancel it in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
