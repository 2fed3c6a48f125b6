import './plan.upcasters';
import { type Decider, unreachable } from '../../platform/domain/decider';
import { conflict, notFound, ruleBroken } from '../../platform/domain/errors';
import { FREE_PLAN_ID, type PlanTerms } from './plan';

export type PlanCommand =
  | { type: 'CreatePlan'; at: Date; planId: string; terms: PlanTerms; isActive: boolean }
  | { type: 'UpdatePlan'; at: Date; changes: Partial<PlanTerms> }
  | { type: 'SetPlanActive'; at: Date; active: boolean }
  | { type: 'ArchivePlan'; at: Date }
  | { type: 'RestorePlan'; at: Date };

export type PlanEvent =
  | { type: 'PlanCreated'; data: { planId: string; terms: PlanTerms; isActive: boolean } }
  | { type: 'PlanUpdated'; data: { planId: string; changes: Partial<PlanTerms> } }
  | { type: 'PlanActivated'; data: { planId: string } }
  | { type: 'PlanDeactivated'; data: { planId: string } }
  | { type: 'PlanArchived'; data: { planId: string } }
  | { type: 'PlanRestored'; data: { planId: string } };

export type PlanState =
  | { status: 'none' }
  | { status: 'active' | 'inactive'; planId: string; terms: PlanTerms }
  | { status: 'archived'; planId: string; terms: PlanTerms };

/** A plan that exists, archived or not. */
function known(state: PlanState): Exclude<PlanState, { status: 'none' }> {
  if (state.status === 'none') throw notFound();
  return state;
}

/** A plan staff may change: not archived (restoring comes first). */
function existing(state: PlanState): Extract<PlanState, { status: 'active' | 'inactive' }> {
  const plan = known(state);
  if (plan.status === 'archived') throw conflict('This plan is archived. Restore the plan before editing it.');
  return plan;
}

/**
 * A subscription plan, managed by staff. Deleting archives it: it leaves the catalogue and
 * cannot be bought, while its subscribers keep it until their period ends. Restoring puts
 * it back on sale, terms as they were; its slug stays its own throughout.
 */
export const planDecider: Decider<PlanCommand, PlanEvent, PlanState> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'CreatePlan':
        if (state.status === 'archived') throw conflict('An archived plan has this slug. Restore it instead of creating it again.', 'slug');
        if (state.status !== 'none') throw ruleBroken('A plan with this slug already exists.', 'slug');
        return [{ type: 'PlanCreated', data: { planId: command.planId, terms: command.terms, isActive: command.isActive } }];
      case 'UpdatePlan': {
        const plan = existing(state);
        const changes = Object.fromEntries(
          Object.entries(command.changes).filter(
            ([key, value]) => JSON.stringify(plan.terms[key as keyof PlanTerms]) !== JSON.stringify(value),
          ),
        ) as Partial<PlanTerms>;
        return Object.keys(changes).length === 0 ? [] : [{ type: 'PlanUpdated', data: { planId: plan.planId, changes } }];
      }
      case 'SetPlanActive': {
        const plan = existing(state);
        if ((plan.status === 'active') === command.active) return [];
        if (plan.planId === FREE_PLAN_ID) throw ruleBroken('The free plan cannot be deactivated: every account falls back to it.');
        return [{ type: command.active ? 'PlanActivated' : 'PlanDeactivated', data: { planId: plan.planId } }];
      }
      case 'ArchivePlan': {
        const plan = known(state);
        if (plan.status === 'archived') return [];
        if (plan.planId === FREE_PLAN_ID) throw ruleBroken('The free plan cannot be deleted: every account falls back to it.');
        return [{ type: 'PlanArchived', data: { planId: plan.planId } }];
      }
      case 'RestorePlan': {
        const plan = known(state);
        return plan.status === 'archived' ? [{ type: 'PlanRestored', data: { planId: plan.planId } }] : [];
      }
      default:
        return unreachable(command);
    }
  },

  /** Never throws: decide only makes events that fit; anything else is ignored or applied as the fact it is. */
  evolve(state, event) {
    if (event.type === 'PlanCreated') {
      const { planId, terms, isActive } = event.data;
      return { status: isActive ? 'active' : 'inactive', planId, terms };
    }
    if (state.status === 'none') return state; // news of a plan never created
    switch (event.type) {
      case 'PlanUpdated':
        return { ...state, terms: { ...state.terms, ...event.data.changes } };
      case 'PlanActivated':
      case 'PlanRestored':
        return { ...state, status: 'active' };
      case 'PlanDeactivated':
        return { ...state, status: 'inactive' };
      case 'PlanArchived':
        return { ...state, status: 'archived' };
      default:
        return unreachable(event);
    }
  },
};
