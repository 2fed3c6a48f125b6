import type { BillingCycle } from '@meshwork/contracts';
import { ANNUAL_SAVING_LABEL } from './pricing-math';

const optionClasses = (selected: boolean) =>
  `flex items-center gap-2 rounded-full px-4 py-2 text-sm font-medium transition-colors ${
    selected
      ? 'bg-white text-slate-900 shadow-sm dark:bg-slate-700 dark:text-white'
      : 'text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white'
  }`;

/** Monthly or annual prices on every card. */
export function BillingCycleToggle({ cycle, onChange }: { cycle: BillingCycle; onChange: (cycle: BillingCycle) => void }) {
  return (
    <div role="group" aria-label="Billing cycle" className="inline-flex rounded-full bg-slate-100 p-1 dark:bg-slate-800">
      <button
        type="button"
        aria-pressed={cycle === 'monthly'}
        onClick={() => onChange('monthly')}
        className={optionClasses(cycle === 'monthly')}
      >
        Monthly
      </button>
      <button
        type="button"
        aria-pressed={cycle === 'yearly'}
        onClick={() => onChange('yearly')}
        className={optionClasses(cycle === 'yearly')}
      >
        Annual
        <span className="rounded-full bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-800 dark:bg-green-900/50 dark:text-green-300">
          {ANNUAL_SAVING_LABEL}
        </span>
      </button>
    </div>
  );
}
