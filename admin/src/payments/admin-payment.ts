import { type AdminPayment, centsOf, moneyText } from '@meshwork/contracts';

export type { AdminPayment };

/** What is left to refund, in currency units with two decimals; counted in cents so 0.1 + 0.2 stays exact. */
export function refundableAmount(payment: Pick<AdminPayment, 'amount' | 'refundAmount'>): number {
  return Number(moneyText(centsOf(payment.amount) - centsOf(payment.refundAmount ?? 0)));
}

/** Spec section 4: only a completed payment can be refunded (a partial refund leaves it completed). */
export function isRefundable(payment: AdminPayment): boolean {
  return payment.status === 'completed' && refundableAmount(payment) > 0;
}

/** The date filter's choices (spec section 9); 'month' is the last 30 days. */
export const PERIODS = ['all', 'today', '7d', 'month'] as const;
