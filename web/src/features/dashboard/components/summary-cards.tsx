import type { PlanInfo, Subscription, UsageStats } from '@meshwork/contracts';
import { CalendarClock, Cpu, Layers, Network, type LucideIcon } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { Link } from 'react-router';
import { formatDay } from '../../../shared/format/account-format';
import { formatLimit } from '../../../shared/format/billing-format';
import { Card } from '../../../shared/ui/card';
import { planEnd } from './plan-end';

function SummaryCard({ label, value, icon: Icon, footer }: { label: string; value: string; icon: LucideIcon; footer?: ReactNode }) {
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
      {footer && <div className="mt-2 text-sm text-slate-600 dark:text-slate-400">{footer}</div>}
    </Card>
  );
}

/** How many networks are in use (once the usage statistics answer), and the way to them. */
function NetworksInUse({ usage }: { usage: UsageStats | undefined }) {
  return (
    <>
      {usage && <span>{usage.networks.used} in use · </span>}
      <Link to="/networks" className="font-medium text-brand-700 hover:underline dark:text-brand-300">
        Manage networks
      </Link>
    </>
  );
}

/** Current Plan, Max Networks (with the networks in use), Clients per Network, Plan Renews or Plan Expires (spec section 2). */
export function SummaryCards({
  planInfo,
  subscription,
  usage,
}: {
  planInfo: PlanInfo;
  subscription: Subscription;
  usage: UsageStats | undefined;
}) {
  const end = planEnd(subscription);
  return (
    <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
      <SummaryCard label="Current Plan" value={planInfo.plan_name} icon={Layers} />
      <SummaryCard
        label="Max Networks"
        value={formatLimit(planInfo.permissions.max_networks)}
        icon={Network}
        footer={<NetworksInUse usage={usage} />}
      />
      <SummaryCard label="Clients per Network" value={formatLimit(planInfo.permissions.max_clients_per_network)} icon={Cpu} />
      <SummaryCard label={end.label} value={end.date ? formatDay(end.date) : 'Never'} icon={CalendarClock} />
    </div>
  );
}
