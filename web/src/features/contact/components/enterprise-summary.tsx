import { ENTERPRISE } from '../../../shared/billing/plan-action';
import { usePlans } from '../../../shared/billing/api/get-plans';
import { planHighlights } from '../../../shared/format/billing-format';
import { CheckList } from '../../../shared/ui/check-list';
import { RegionCard } from '../../../shared/ui/region-card';

/** The Enterprise plan's terms as the pricing page shows them, so this page never states other ones. */
export function EnterpriseSummary() {
  const plans = usePlans();
  const enterprise = plans.data?.find((plan) => plan.slug === ENTERPRISE);
  // An aside: while the plans load, or when they cannot, the form stands on its own.
  if (!enterprise) return null;
  return (
    <RegionCard title={`What ${enterprise.name} includes`}>
      <p className="text-sm text-slate-600 dark:text-slate-400">{enterprise.description}</p>
      <CheckList items={planHighlights(enterprise)} className="mt-5" />
    </RegionCard>
  );
}
