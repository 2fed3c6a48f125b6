import type { PlanInfo } from '@meshwork/contracts';
import { CalendarClock, Cpu, Layers, Network, type LucideIcon } from 'lucide-react';
import { useId } from 'react';
import { formatDay } from '../../../shared/format/account-format';
import { formatLimit } from '../../../shared/format/billing-format';
import { Card } from '../../../shared/ui/card';

function SummaryCard({ label, value, icon: Icon }: { label: string; value: string; icon: LucideIcon }) {
  const labelId = useId();
  return (
    <Card role="group" aria-labelledby={labelId} className="p-6">
      <div className="flex items-center justify-between">
        <p id={labelId} className="text-sm font-medium text-slate-600 dark:text-slate-400">
          {label}
        </p>
        <Icon className="size-5 text-brand-600 dark:text-brand-400" aria-hidden />
      </div>
      <p className="mt-3 text-2xl font-semibold text-slate-900 dark:text-white">{value}</p>
    </Card>
  );
}

/** Current Plan, Max Networks, Clients per Network, Plan Expires (spec section 2). */
export function SummaryCards({ planInfo }: { planInfo: PlanInfo }) {
  return (
    <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
      <SummaryCard label="Current Plan" value={planInfo.plan_name} icon={Layers} />
      <SummaryCard label="Max Networks" value={formatLimit(planInfo.permissions.max_networks)} icon={Network} />
      <SummaryCard label="Clients per Network" value={formatLimit(planInfo.permissions.max_clients_per_network)} icon={Cpu} />
      <SummaryCard label="Plan Expires" value={planInfo.expires_at ? formatDay(planInfo.expires_at) : 'Never'} icon={CalendarClock} />
    </div>
  );
}
