import type { PlanInfo } from '@meshwork/contracts';
import { Button } from '../../../../shared/ui/button';
import { Dialog } from '../../../../shared/ui/dialog';
import { tourFeatures, type TourStatus } from './onboarding-steps';

const statusLooks: Record<TourStatus, { label: string; className: string }> = {
  available: { label: 'Available', className: 'bg-green-100 text-green-800 dark:bg-green-900/50 dark:text-green-300' },
  limited: { label: 'Limited', className: 'bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-300' },
  upgrade: { label: 'Upgrade', className: 'bg-brand-100 text-brand-800 dark:bg-brand-900/50 dark:text-brand-200' },
  info: { label: 'Info', className: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300' },
};

/** What the user's plan includes, feature by feature. Closing it skips; Finish completes the onboarding. */
export function PlanTourModal({ planInfo, onSkip, onFinish }: { planInfo: PlanInfo; onSkip: () => void; onFinish: () => void }) {
  return (
    <Dialog
      title="Plan Features Tour"
      description={`What your ${planInfo.plan_name} plan includes.`}
      onClose={onSkip}
      className="max-w-2xl"
    >
      <ul className="space-y-4">
        {tourFeatures(planInfo).map((feature) => (
          <li key={feature.title} className="rounded-xl border border-slate-200 p-4 dark:border-slate-700">
            <div className="flex items-center justify-between gap-4">
              <h3 className="font-semibold text-slate-900 dark:text-white">{feature.title}</h3>
              <span className={`rounded-full px-2.5 py-0.5 text-xs font-medium ${statusLooks[feature.status].className}`}>
                {statusLooks[feature.status].label}
              </span>
            </div>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{feature.description}</p>
          </li>
        ))}
      </ul>
      <div className="mt-6 flex justify-end">
        <Button onClick={onFinish}>Finish Tour</Button>
      </div>
    </Dialog>
  );
}
