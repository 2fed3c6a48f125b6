import { given } from '../../platform/testing/given-when-then';
import { terms } from './billing-fixtures';
import { type PlanEvent, planDecider } from './plan.decider';

const at = new Date('2026-03-01T10:00:00Z');
const created = (planId = 'pro'): PlanEvent => ({ type: 'PlanCreated', data: { planId, terms: terms(), isActive: true } });

describe('plan decider', () => {
  it('creates a plan once per slug', () => {
    given(planDecider).when({ type: 'CreatePlan', at, planId: 'pro', terms: terms(), isActive: true }).then([created()]);
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

  it('archives on delete, after which the plan is gone for every command', () => {
    given(planDecider, [created()])
      .when({ type: 'ArchivePlan', at })
      .then([{ type: 'PlanArchived', data: { planId: 'pro' } }]);
    const archived = [created(), { type: 'PlanArchived', data: { planId: 'pro' } } as PlanEvent];
    given(planDecider, archived)
      .when({ type: 'UpdatePlan', at, changes: { priceCents: 1 } })
      .thenThrows(/not found/);
    given(planDecider, archived)
      .when({ type: 'ArchivePlan', at })
      .thenThrows(/not found/);
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
