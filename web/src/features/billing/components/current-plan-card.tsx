import type { Subscription } from '@meshwork/contracts';
import { TriangleAlert } from 'lucide-react';
import { formatMoney } from '../../../shared/format/billing-format';
import { RegionCard } from '../../../shared/ui/region-card';
import { subscriptionNotices, subscriptionStatusLabel, type SubscriptionStatusLabel } from './subscription-status';

const statusClasses: Record<SubscriptionStatusLabel, string> = {
  Free: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300',
  Active: 'bg-green-100 text-green-800 dark:bg-green-900/50 dark:text-green-300',
  Cancelling: 'bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-300',
  'Past due': 'bg-red-100 text-red-800 dark:bg-red-900/50 dark:text-red-300',
};

/** Name, price, cycle and status of the plan, and anything about to change. */
export function CurrentPlanCard({ subscription }: { subscription: Subscription }) {
  const status = subscriptionStatusLabel(subscription);
  const cycle = subscription.billing_cycle === 'yearly' ? 'year' : subscription.billing_cycle === 'monthly' ? 'month' : null;
  return (
    <RegionCard title="Current Plan">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <p className="text-2xl font-semibold text-slate-900 dark:text-white">{subscription.plan_name}</p>
          <p className="mt-1 text-slate-600 dark:text-slate-400">
            {formatMoney(subscription.price)}
            {cycle && ` per ${cycle}, billed ${subscription.billing_cycle}`}
          </p>
        </div>
        <span className={`rounded-full px-3 py-1 text-sm font-medium ${statusClasses[status]}`}>{status}</span>
      </div>
      {subscriptionNotices(subscription).map((notice) => (
        <p
          key={notice}
          className="mt-4 flex gap-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950/40 dark:text-amber-200"
        >
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
          {notice}
        </p>
      ))}
    </RegionCard>
  );
}
