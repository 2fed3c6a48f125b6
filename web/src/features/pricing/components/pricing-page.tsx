import type { BillingCycle, Plan } from '@meshwork/contracts';
import { ChevronDown } from 'lucide-react';
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { usePlanInfo } from '../../../shared/billing/api/get-plan-info';
import { usePlans } from '../../../shared/billing/api/get-plans';
import { PlanChangeDialog } from '../../../shared/billing/components/plan-change-dialog';
import { planAction, type Viewer } from '../../../shared/billing/plan-action';
import { LoadFailureScreen } from '../../../shared/errors/load-failure-screen';
import { useSession } from '../../../shared/session/use-session';
import { notifyError } from '../../../shared/toast/notify';
import { Button } from '../../../shared/ui/button';
import { PageSpinner } from '../../../shared/ui/spinner';
import { BillingCycleToggle } from './billing-cycle-toggle';
import { ComparisonTable } from './comparison-table';
import { PlanCard } from './plan-card';
import { PricingCta } from './pricing-cta';

const LOAD_FAILED = 'Could not load pricing plans. Please try again later.';

/** /pricing (spec section 2, "Pricing page"): every price, limit and row comes from the plans the api serves. */
export function PricingPage() {
  const session = useSession();
  const signedIn = session.status === 'authenticated';
  const plans = usePlans();
  const planInfo = usePlanInfo({ enabled: signedIn });
  const [cycle, setCycle] = useState<BillingCycle>('monthly');
  const [showComparison, setShowComparison] = useState(false);
  const [changingTo, setChangingTo] = useState<Plan | null>(null);
  const closeDialog = useCallback(() => setChangingTo(null), []);
  const comparisonId = useId();

  useEffect(() => {
    if (plans.isError) notifyError(LOAD_FAILED, plans.error);
  }, [plans.isError, plans.error]);

  // The profile already names the plan, so the buttons are right before the plan call answers.
  const currentSlug = planInfo.data?.plan_slug ?? session.user?.subscription_plan;
  const current = plans.data?.find((plan) => plan.slug === currentSlug);
  // Kept while the session only goes from unknown to anonymous, so the cards need not render again.
  const actions = useMemo(() => {
    const viewer: Viewer = signedIn ? { signedIn: true, current } : { signedIn: false };
    return new Map(plans.data?.map((plan) => [plan.slug, planAction(plan, viewer)]));
  }, [plans.data, signedIn, current]);

  return (
    <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 lg:px-8">
      <header className="mx-auto max-w-2xl text-center">
        <h1 className="text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl dark:text-white">Simple, transparent pricing</h1>
        <p className="mt-4 text-lg text-slate-600 dark:text-slate-400">
          Start free and grow your mesh as your business grows. Your data never leaves your network on any plan.
        </p>
        <div className="mt-8">
          <BillingCycleToggle cycle={cycle} onChange={setCycle} />
        </div>
      </header>

      {plans.isPending && <PageSpinner label="Loading plans…" />}
      {plans.isError && <LoadFailureScreen error={plans.error} onRetry={plans.refetch} retrying={plans.isFetching} />}
      {/* A failed refresh replaces the plans the page was rendered with: they may be out of date. */}
      {plans.data && !plans.isError && (
        <>
          <div className="mt-14 grid gap-8 lg:grid-cols-3">
            {plans.data.map((plan) => (
              <PlanCard key={plan.slug} plan={plan} cycle={cycle} action={actions.get(plan.slug)!} onChangePlan={setChangingTo} />
            ))}
          </div>
          <div className="mt-14 text-center">
            <Button
              variant="ghost"
              aria-expanded={showComparison}
              aria-controls={comparisonId}
              onClick={() => setShowComparison((s) => !s)}
            >
              {showComparison ? 'Hide Detailed Comparison' : 'Show Detailed Comparison'}
              <ChevronDown className={`size-4 transition-transform ${showComparison ? 'rotate-180' : ''}`} aria-hidden />
            </Button>
          </div>
          {showComparison && <ComparisonTable id={comparisonId} plans={plans.data} />}
        </>
      )}

      <PricingCta signedIn={signedIn} />

      {changingTo && <PlanChangeDialog target={changingTo} current={current} billingCycle={cycle} onClose={closeDialog} />}
    </div>
  );
}
