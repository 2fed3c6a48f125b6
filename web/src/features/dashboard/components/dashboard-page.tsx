import { ArrowRight, Boxes, Cpu, Layers } from 'lucide-react';
import { formatClientLimit, formatPlanName } from '../../../shared/format/account-format';
import { useSession } from '../../../shared/session/use-session';
import { LinkButton } from '../../../shared/ui/button';
import { Card } from '../../../shared/ui/card';

/** /dashboard, first cut: the welcome and the plan. The full dashboard of spec section 2 comes later. */
export function DashboardPage() {
  const session = useSession();
  if (session.status !== 'authenticated') return null; // the route guard shows something else meanwhile
  const { user } = session;
  const name = user.first_name.trim() || user.username.trim() || user.email;
  const cards = [
    { label: 'Current Plan', value: formatPlanName(user.subscription_plan), icon: Layers },
    { label: 'Max Clients', value: formatClientLimit(user.max_clients), icon: Cpu },
    { label: 'Available Models', value: String(user.allowed_models.length), icon: Boxes },
  ];

  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6 lg:px-8">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 dark:text-white">Welcome back, {name}!</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-400">
        You are on the <strong className="text-slate-900 dark:text-white">{formatPlanName(user.subscription_plan)}</strong> plan.
      </p>
      <div className="mt-8 grid gap-6 sm:grid-cols-3">
        {cards.map(({ label, value, icon: Icon }) => (
          <Card key={label} className="p-6">
            <div className="flex items-center justify-between">
              <p className="text-sm font-medium text-slate-600 dark:text-slate-400">{label}</p>
              <Icon className="size-5 text-brand-600 dark:text-brand-400" aria-hidden />
            </div>
            <p className="mt-3 text-2xl font-semibold text-slate-900 dark:text-white">{value}</p>
          </Card>
        ))}
      </div>
      <div className="mt-8 flex flex-wrap gap-3">
        <LinkButton to="/pricing">
          Compare plans <ArrowRight className="size-4" aria-hidden />
        </LinkButton>
        <LinkButton to="/profile" variant="secondary">
          Account settings
        </LinkButton>
      </div>
    </div>
  );
}
