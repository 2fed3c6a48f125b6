import { useGetList } from 'react-admin';
import type { AdminPlan } from '@meshwork/contracts';

/** A plan as the models screens show it: a column of the matrix, a checkbox, a badge, a CSV column. */
export interface ModelPlanColumn {
  id: string;
  name: string;
}

/**
 * The plans models can be opened to: every plan that is not archived, on sale or held back,
 * cheapest tier first (GET /admin-panel/plans/, the plans screen's own list, so an edit there
 * refreshes these too). Staff-made plans are columns like the seeded three.
 */
export function useModelPlans(): { plans: ModelPlanColumn[]; isPending: boolean } {
  const { data, isPending } = useGetList<AdminPlan>('plans', {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'tier', order: 'ASC' },
    filter: {},
  });
  return { plans: (data ?? []).map((plan) => ({ id: plan.id, name: plan.name })), isPending };
}

/**
 * A plan's name without a trailing "Plan", so labels can add it once: the seeded "Pro" and a
 * staff-made "Team Plan" read "Pro Plan" and "Team Plan" (the spec's column names).
 */
export const planBaseName = (name: string): string => name.replace(/\s*\bplan$/i, '').trim() || name;

/** The plans a model allows in the list's order; slugs the list lacks (archived plans) last, named by slug. */
export function plansAllowed(plans: readonly ModelPlanColumn[], allowed: readonly string[]): ModelPlanColumn[] {
  const known = plans.filter((plan) => allowed.includes(plan.id));
  const others = allowed.filter((slug) => !plans.some((plan) => plan.id === slug)).map((slug) => ({ id: slug, name: slug }));
  return [...known, ...others];
}
