import type { Plan } from '@meshwork/contracts';
import { Check, Minus } from 'lucide-react';
import { comparisonRows } from './pricing-math';

function Cell({ value }: { value: string | boolean }) {
  if (typeof value === 'string') return <>{value}</>;
  return value ? (
    <>
      <Check className="mx-auto size-5 text-green-600 dark:text-green-400" aria-hidden />
      <span className="sr-only">Included</span>
    </>
  ) : (
    <>
      <Minus className="mx-auto size-5 text-slate-400" aria-hidden />
      <span className="sr-only">Not included</span>
    </>
  );
}

/** The Detailed Comparison table, a column per plan in tier order. */
export function ComparisonTable({ plans, id }: { plans: readonly Plan[]; id: string }) {
  return (
    <div id={id} className="mt-8 overflow-x-auto rounded-2xl border border-slate-200 dark:border-slate-800">
      <table className="w-full min-w-[36rem] text-sm">
        <caption className="sr-only">Plan comparison</caption>
        <thead className="bg-slate-50 dark:bg-slate-900">
          <tr>
            <th scope="col" className="px-6 py-4 text-left font-semibold text-slate-900 dark:text-white">
              Feature
            </th>
            {plans.map((plan) => (
              <th key={plan.slug} scope="col" className="px-6 py-4 text-center font-semibold text-slate-900 dark:text-white">
                {plan.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
          {comparisonRows(plans).map((row) => (
            <tr key={row.label}>
              <th scope="row" className="px-6 py-4 text-left font-medium text-slate-700 dark:text-slate-300">
                {row.label}
              </th>
              {row.values.map((value, index) => (
                <td key={plans[index]?.slug ?? index} className="px-6 py-4 text-center text-slate-600 dark:text-slate-400">
                  <Cell value={value} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
