import type { Payment } from '@meshwork/contracts';
import { formatDateTime, formatMoney } from '../../../shared/format/billing-format';
import { RegionCard } from '../../../shared/ui/region-card';
import { hasRefund, PAYMENT_HISTORY_SIZE, paymentTone } from './subscription-status';

const toneClasses = {
  completed: 'bg-green-100 text-green-800 dark:bg-green-900/50 dark:text-green-300',
  pending: 'bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-300',
} as const;

/** The five latest payments: amount, date, status, and any refund. */
export function PaymentHistory({ payments }: { payments: readonly Payment[] }) {
  const latest = payments.slice(0, PAYMENT_HISTORY_SIZE);
  return (
    <RegionCard title="Payment History">
      {latest.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">No payments yet.</p>
      ) : (
        <table className="w-full text-sm">
          <thead>
            <tr className="text-left text-slate-500 dark:text-slate-400">
              <th scope="col" className="pb-2 font-medium">
                Amount
              </th>
              <th scope="col" className="pb-2 font-medium">
                Date
              </th>
              <th scope="col" className="pb-2 text-right font-medium">
                Status
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {latest.map((payment) => (
              <tr key={payment.id}>
                <td className="py-3">
                  <span className="font-medium text-slate-900 dark:text-white">{formatMoney(payment.amount)}</span>
                  <span className="block text-xs text-slate-500 dark:text-slate-400">{payment.plan_name}</span>
                  {hasRefund(payment) && (
                    <span className="block text-xs text-slate-500 dark:text-slate-400">
                      Refunded {formatMoney(payment.refunded_amount)}
                    </span>
                  )}
                </td>
                <td className="py-3 text-slate-600 dark:text-slate-400">{formatDateTime(payment.created_at)}</td>
                <td className="py-3 text-right">
                  <span className={`rounded-full px-2.5 py-1 text-xs font-medium capitalize ${toneClasses[paymentTone(payment.status)]}`}>
                    {payment.status}
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </RegionCard>
  );
}
