import { randomBytes } from 'node:crypto';
import { PersonalDataVault } from '../../identity/infrastructure/personal-data-vault';
import { UserEventCodec } from '../../identity/infrastructure/user-event-codec';
import { EVERYONE, IDENTITY_CHANGED_CHANNEL } from '../../platform/database/notifications';
import { anEvent } from '@meshwork/testkit/api/an-event';
import { projectionScenario } from '../../testing/projection-scenario';
import { SEEDED_PLANS } from '../application/seed-plans';
import { billingProjection } from './billing.projection';

/** A plan as it was stored before issue 35: terms without the API fields. */
const API_FIELDS = ['apiTokenScope', 'apiRequestsPerMinute', 'webhooks', 'usageHistoryDays'];
const oldPlan = (planId: string, tier: number) => {
  const terms = Object.fromEntries(Object.entries({ ...SEEDED_PLANS.pro!, tier }).filter(([field]) => !API_FIELDS.includes(field)));
  return { streamId: `plan-${planId}`, events: [anEvent({ type: 'PlanCreated', data: { planId, terms, isActive: true } })] };
};

describe("plans' API terms (issue 35)", () => {
  const billing = projectionScenario((pool) => billingProjection(new UserEventCodec(new PersonalDataVault(pool, randomBytes(32)))), {
    listen: IDENTITY_CHANGED_CHANNEL,
  });
  const columns = 'id, api_token_scope, api_requests_per_minute, webhooks, usage_history_days';

  it("replays plans stored before them with their tier's terms, and announces a change to every user", async () => {
    const then = await billing.given(oldPlan('basic', 1), oldPlan('team', 2), oldPlan('corp', 3)).when({
      streamId: 'plan-team',
      events: [anEvent({ type: 'PlanUpdated', data: { planId: 'team', changes: { apiTokenScope: 'read', apiRequestsPerMinute: 5 } } })],
    });
    expect(await then.rows(`SELECT ${columns} FROM ${billing.schema}.plans ORDER BY id`)).toEqual([
      { id: 'basic', api_token_scope: 'read', api_requests_per_minute: 60, webhooks: false, usage_history_days: 7 },
      { id: 'corp', api_token_scope: 'read_write', api_requests_per_minute: 3000, webhooks: true, usage_history_days: 90 },
      { id: 'team', api_token_scope: 'read', api_requests_per_minute: 5, webhooks: false, usage_history_days: 90 },
    ]);
    // Tokens read the plan through cached user objects: every one of them is forgotten.
    expect(then.announced).toContain(EVERYONE);
  });
});
