import type { BillingCycle, Plan } from '@meshwork/contracts';
import { Building2, Sparkles, Zap, type LucideIcon } from 'lucide-react';
import { memo, useId } from 'react';
import { formatMoney, planHighlights } from '../../../shared/format/billing-format';
import type { PlanAction } from '../../../shared/billing/plan-action';
import { cyclePrice } from '../../../shared/billing/plan-change';
import { Button, LinkButton } from '../../../shared/ui/button';
import { Card } from '../../../shared/ui/card';
import { CheckList } from '../../../shared/ui/check-list';
import { annualSavings } from './pricing-math';

const icons: Record<string, LucideIcon> = { free: Sparkles, pro: Zap, enterprise: Building2 };

interface PlanCardProps {
  plan: Plan;
  cycle: BillingCycle;
  action: PlanAction;
  /** Opens the plan-change dialog for this plan. */
  onChangePlan: (plan: Plan) => void;
}

function ActionButton({ plan, action, onChangePlan }: Omit<PlanCardProps, 'cycle'>) {
  const variant = plan.popular ? 'primary' : 'secondary';
  switch (action.kind) {
    case 'link':
      return (
        <LinkButton to={action.to} variant={variant} fullWidth>
          {action.label}
        </LinkButton>
      );
    case 'current':
      return (
        <Button variant="secondary" fullWidth disabled>
          {action.label}
        </Button>
      );
    case 'change':
      return (
        <Button variant={variant} fullWidth onClick={() => onChangePlan(plan)}>
          {action.label}
        </Button>
      );
  }
}

/**
 * One plan: price for the chosen cycle, limits, features and what its button does. Memoized:
 * the session's first answer re-renders the pricing page, rarely with a new action.
 */
export const PlanCard = memo(function PlanCard({ plan, cycle, action, onChangePlan }: PlanCardProps) {
  const headingId = useId();
  const Icon = icons[plan.slug] ?? Sparkles;
  const savings = cycle === 'yearly' ? annualSavings(plan.price) : null;
  return (
    <Card
      role="article"
      aria-labelledby={headingId}
      className={`relative flex flex-col p-8 ${plan.popular ? 'border-brand-500 ring-2 ring-brand-500 dark:border-brand-400 dark:ring-brand-400' : ''}`}
    >
      {plan.popular && (
        <span className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-brand-600 px-3 py-1 text-xs font-semibold text-white dark:bg-brand-500 dark:text-slate-950">
          Most Popular
        </span>
      )}
      <div className="flex items-center gap-3">
        <Icon className="size-6 text-brand-600 dark:text-brand-400" aria-hidden />
        <h2 id={headingId} className="text-xl font-semibold text-slate-900 dark:text-white">
          {plan.name}
        </h2>
      </div>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{plan.description}</p>
      <p className="mt-6">
        <span className="text-4xl font-bold tracking-tight text-slate-900 dark:text-white">{formatMoney(cyclePrice(plan, cycle))}</span>
        <span className="text-slate-500 dark:text-slate-400">/{cycle === 'yearly' ? 'year' : 'month'}</span>
      </p>
      <p className="mt-1 h-5 text-sm font-medium text-green-700 dark:text-green-400">
        {savings && Number(savings) > 0 ? `Save ${formatMoney(savings)} per year` : ''}
      </p>
      <CheckList items={planHighlights(plan)} className="mt-6 flex-1" />
      <div className="mt-8">
        <ActionButton plan={plan} action={action} onChangePlan={onChangePlan} />
      </div>
    </Card>
  );
});
