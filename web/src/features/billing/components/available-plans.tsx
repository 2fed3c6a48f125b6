import type { BillingCycle, Plan } from '@meshwork/contracts';
import { useCallback, useState } from 'react';
import { usePlans } from '../../../shared/billing/api/get-plans';
import { PlanChangeDialog } from '../../../shared/billing/components/plan-change-dialog';
import { planAction } from '../../../shared/billing/plan-action';
import { formatMoney, limitText } from '../../../shared/format/billing-format';
import { Button } from '../../../shared/ui/button';
import { Spinner } from '../../../shared/ui/spinner';
import { RegionCard } from '../../../shared/ui/region-card';

/** Every plan with its change button; changes keep the cycle the user pays on now. */
export function AvailablePlans({ currentPlanId, billingCycle }: { currentPlanId: string; billingCycle: BillingCycle }) {
  const plans = usePlans();
  const [changingTo, setChangingTo] = useState<Plan | null>(null);
  const closeDialog = useCallback(() => setChangingTo(null), []);
  const current = plans.data?.find((plan) => plan.slug === currentPlanId);

  return (
    <RegionCard title="Available Plans">
      {plans.isPending && <Spinner className="size-5" />}
      {plans.isError && <p className="text-sm text-red-700 dark:text-red-300">Could not load pricing plans. Please try again later.</p>}
      <ul className="grid gap-4 sm:grid-cols-3">
        {plans.data?.map((plan) => {
          const action = planAction(plan, { signedIn: true, current });
          return (
            <li key={plan.slug} className="flex flex-col rounded-xl border border-slate-200 p-4 dark:border-slate-800">
              <p className="font-semibold text-slate-900 dark:text-white">{plan.name}</p>
              <p className="text-sm text-slate-600 dark:text-slate-400">{formatMoney(plan.price)}/month</p>
              <p className="mt-2 flex-1 text-xs text-slate-500 dark:text-slate-400">
                {limitText(plan.max_networks, 'network')}, {limitText(plan.max_clients_per_network, 'client')} per network
              </p>
              <Button
                size="sm"
                variant={action.kind === 'change' && action.direction === 'upgrade' ? 'primary' : 'secondary'}
                className="mt-4"
                disabled={action.kind !== 'change'}
                onClick={() => setChangingTo(plan)}
              >
                {action.label}
                <span className="sr-only">: {plan.name}</span>
              </Button>
            </li>
          );
        })}
      </ul>
      {changingTo && <PlanChangeDialog target={changingTo} current={current} billingCycle={billingCycle} onClose={closeDialog} />}
    </RegionCard>
  );
}
