import { replay } from '../../platform/domain/decider';
import { DomainError } from '../../platform/domain/errors';
import { given } from '../../platform/testing/given-when-then';
import { terms } from './billing-fixtures';
import { type PlanEvent, planDecider } from './plan.decider';

const at = new Date('2026-03-01T10:00:00Z');
const created = (planId = 'pro'): PlanEvent => ({ type: 'PlanCreated', data: { planId, terms: terms(), isActive: true } });
const archived: PlanEvent = { type: 'PlanArchived', data: { planId: 'pro' } };
const restored: PlanEvent = { type: 'PlanRestored', data: { planId: 'pro' } };

/** The domain error a command is refused with, for its status as well as its words. */
function refusal(history: PlanEvent[], command: Parameters<typeof planDecider.decide>[0]): DomainError {
  try {
    planDecider.decide(command, replay(planDecider, history));
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('the command was not refused');
}

describe('plan decider', () => {
  describe('when no plan has the slug', () => {
    it('creates it', () => {
      given(planDecider).when({ type: 'CreatePlan', at, planId: 'pro', terms: terms(), isActive: true }).then([created()]);
    });
    it('has nothing to change, archive or restore', () => {
      given(planDecider)
        .when({ type: 'UpdatePlan', at, changes: { priceCents: 1 } })
        .thenThrows(/not found/);
      given(planDecider)
        .when({ type: 'ArchivePlan', at })
        .thenThrows(/not found/);
      given(planDecider)
        .when({ type: 'RestorePlan', at })
        .thenThrows(/not found/);
    });
  });

  describe('when on sale or held back', () => {
    it('refuses a second plan with the slug', () => {
      given(planDecider, [created()])
        .when({ type: 'CreatePlan', at, planId: 'pro', terms: terms(), isActive: true })
        .thenThrows(/already exists/);
    });

    it('records only the terms that change', () => {
      given(planDecider, [created()])
        .when({ type: 'UpdatePlan', at, changes: { priceCents: 3900, maxNetworks: 5 } })
        .then([{ type: 'PlanUpdated', data: { planId: 'pro', changes: { priceCents: 3900 } } }]);
      given(planDecider, [created()])
        .when({ type: 'UpdatePlan', at, changes: { features: ['Priority Support'] } })
        .then([]);
    });

    it('deactivates and reactivates, each once', () => {
      given(planDecider, [created()])
        .when({ type: 'SetPlanActive', at, active: false })
        .then([{ type: 'PlanDeactivated', data: { planId: 'pro' } }]);
      given(planDecider, [created(), { type: 'PlanDeactivated', data: { planId: 'pro' } }])
        .when({ type: 'SetPlanActive', at, active: true })
        .then([{ type: 'PlanActivated', data: { planId: 'pro' } }]);
      given(planDecider, [created()]).when({ type: 'SetPlanActive', at, active: true }).then([]);
    });

    it('archives on delete; restoring a plan that is not archived changes nothing', () => {
      given(planDecider, [created()]).when({ type: 'ArchivePlan', at }).then([archived]);
      given(planDecider, [created()]).when({ type: 'RestorePlan', at }).then([]);
    });

    it('never deletes or deactivates the free plan, which every account falls back to', () => {
      given(planDecider, [created('free')])
        .when({ type: 'ArchivePlan', at })
        .thenThrows(/cannot be deleted/);
      given(planDecider, [created('free')])
        .when({ type: 'SetPlanActive', at, active: false })
        .thenThrows(/cannot be deactivated/);
    });
  });

  describe('when archived', () => {
    const history = [created(), archived];

    it('restores it, on sale again with its terms as they were', () => {
      given(planDecider, history).when({ type: 'RestorePlan', at }).then([restored]);
      expect(given(planDecider, history).when({ type: 'RestorePlan', at }).thenState()).toEqual({
        status: 'active',
        planId: 'pro',
        terms: terms(),
      });
    });

    it('refuses edits and activation until restored (409)', () => {
      const edit = refusal(history, { type: 'UpdatePlan', at, changes: { priceCents: 1 } });
      expect([edit.kind, edit.message]).toEqual(['conflict', 'This plan is archived. Restore the plan before editing it.']);
      expect(refusal(history, { type: 'SetPlanActive', at, active: true }).kind).toBe('conflict');
    });

    it('refuses a new plan with its slug, saying it can be restored (409)', () => {
      const again = refusal(history, { type: 'CreatePlan', at, planId: 'pro', terms: terms(), isActive: true });
      expect([again.kind, again.field]).toEqual(['conflict', 'slug']);
      expect(again.message).toMatch(/archived.*Restore it/);
    });

    it('archives only once', () => {
      given(planDecider, history).when({ type: 'ArchivePlan', at }).then([]);
    });
  });

  describe('when restored', () => {
    it('is edited, deactivated and archived again like any plan', () => {
      const history = [created(), archived, restored];
      given(planDecider, history)
        .when({ type: 'UpdatePlan', at, changes: { priceCents: 3900 } })
        .then([{ type: 'PlanUpdated', data: { planId: 'pro', changes: { priceCents: 3900 } } }]);
      given(planDecider, history)
        .when({ type: 'SetPlanActive', at, active: false })
        .then([{ type: 'PlanDeactivated', data: { planId: 'pro' } }]);
      given(planDecider, history).when({ type: 'ArchivePlan', at }).then([archived]);
    });
  });

  describe('evolve', () => {
    it('never throws: news of a plan never created leaves no plan', () => {
      const none = planDecider.initialState();
      for (const event of [archived, restored, { type: 'PlanUpdated', data: { planId: 'pro', changes: { priceCents: 1 } } }] as PlanEvent[])
        expect(planDecider.evolve(none, event)).toBe(none);
    });
  });
});
