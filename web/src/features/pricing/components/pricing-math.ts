import { ANNUAL_FACTOR, centsOf, moneyText, type Plan } from '@meshwork/contracts';
import { formatLimit } from '../../../shared/format/billing-format';

/** 'Save 17%': what the annual price leaves out of twelve monthly payments. */
export const ANNUAL_SAVING_LABEL = `Save ${Math.round((1 - ANNUAL_FACTOR) * 100)}%`;

/** Spec section 9: savings shown = 12 x monthly price x 0.17, as money text ("59.16"). Worked in cents so no float leaks into the label. */
export function annualSavings(monthlyPrice: string): string {
  return moneyText(Math.round(12 * centsOf(monthlyPrice) * (1 - ANNUAL_FACTOR)));
}

export interface ComparisonRow {
  label: string;
  /** One per plan, in the plans' order: text, or whether the plan includes it. */
  values: (string | boolean)[];
}

/** Rows that are "yes" when the plan's feature list holds exactly this text. */
const FEATURE_ROWS = ['Priority Support', 'Custom Integrations', 'Advanced Analytics'] as const;

/** The Detailed Comparison table, built from plan data only (spec section 9 lists what seeded plans give). */
export function comparisonRows(plans: readonly Plan[]): ComparisonRow[] {
  return [
    { label: 'Max Networks', values: plans.map((p) => formatLimit(p.max_networks)) },
    { label: 'Max Clients per Network', values: plans.map((p) => formatLimit(p.max_clients_per_network)) },
    { label: 'Model Access', values: plans.map((p) => p.model_access) },
    ...FEATURE_ROWS.map((feature) => ({ label: feature, values: plans.map((p) => p.features.includes(feature)) })),
    { label: 'API Access', values: plans.map((p) => p.api_access) },
  ];
}
