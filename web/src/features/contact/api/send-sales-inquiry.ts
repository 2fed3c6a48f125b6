import type { SalesInquiry, SalesInquiryAnswer } from '@meshwork/contracts';
import { mutationOptions, useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';

/** POST /contact/: mails a visitor's message to sales. */
export function sendSalesInquiry(inquiry: SalesInquiry): Promise<SalesInquiryAnswer> {
  // Public: a stale token must not send someone with a message half written to /login.
  return apiClient.post<SalesInquiryAnswer>('/contact/', inquiry, { auth: false });
}

export function sendSalesInquiryMutationOptions() {
  return mutationOptions({ mutationKey: ['contact', 'sales-inquiry'], mutationFn: sendSalesInquiry });
}

export function useSendSalesInquiry() {
  return useMutation(sendSalesInquiryMutationOptions());
}
