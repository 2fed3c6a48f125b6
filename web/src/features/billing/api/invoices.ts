import type { BillingDetails, BillingDetailsRequest, Invoice } from '@meshwork/contracts';
import { mutationOptions, queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';
import { attachmentFileName } from '../../../shared/api/file-transfer';

export const invoiceQueryKeys = { invoices: ['billing', 'invoices'], details: ['billing', 'details'] } as const;

/** GET /billing/invoices/: the customer's invoices and credit notes, newest first. */
export function fetchInvoices(signal?: AbortSignal): Promise<Invoice[]> {
  return apiClient.get<Invoice[]>('/billing/invoices/', { signal });
}

/**
 * Invoices are issued moments after a payment (from the log), so while fewer are listed than
 * `expected` (the completed payments), the list is asked again every two seconds.
 */
export function invoicesQueryOptions(expected: number) {
  return queryOptions({
    queryKey: invoiceQueryKeys.invoices,
    queryFn: ({ signal }) => fetchInvoices(signal),
    refetchInterval: (query) => ((query.state.data?.filter((i) => i.kind === 'invoice').length ?? 0) < expected ? 2_000 : false),
  });
}

export function useInvoices(expected: number) {
  return useQuery(invoicesQueryOptions(expected));
}

/** GET /billing/invoices/{id}/pdf with the session's token, saved under the server's file name. */
export async function downloadInvoice(invoice: Pick<Invoice, 'id' | 'number'>): Promise<void> {
  const response = await apiClient.request<Response>(`/billing/invoices/${encodeURIComponent(invoice.id)}/pdf`, { responseType: 'stream' });
  const fileName = attachmentFileName(response.headers.get('Content-Disposition')) ?? `${invoice.number}.pdf`;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The click only queues the download; revoking at once can cancel it in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** GET /billing/details/: who invoices are made out to (empty strings until set). */
export function fetchBillingDetails(signal?: AbortSignal): Promise<BillingDetails> {
  return apiClient.get<BillingDetails>('/billing/details/', { signal });
}

export function useBillingDetails() {
  return useQuery(queryOptions({ queryKey: invoiceQueryKeys.details, queryFn: ({ signal }) => fetchBillingDetails(signal) }));
}

/** POST /billing/details/: saved for the invoices issued from now on. */
export function saveBillingDetails(details: BillingDetailsRequest): Promise<BillingDetails> {
  return apiClient.post<BillingDetails>('/billing/details/', details);
}

export function saveBillingDetailsMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: ['billing', 'save-details'],
    mutationFn: saveBillingDetails,
    onSuccess: (saved) => queryClient.setQueryData(invoiceQueryKeys.details, saved),
  });
}

export function useSaveBillingDetails() {
  return useMutation(saveBillingDetailsMutationOptions(useQueryClient()));
}
