import { BillingClock } from '../../billing/application/billing-clock';
import { eventually } from '@meshwork/testkit/eventually';
import type { TestCustomer } from '@meshwork/testkit/api/accounts';
import { networksWorld, type NetworksWorld } from '@meshwork/testkit/api/network-kit';

const DAY = 86_400_000;

/**
 * Issue 12, section 2: plan changes reach networks through the plan-limits follower as
 * commands; nothing is ever deleted, each effect names its cause, and upgrades resume.
 */
describe('plan changes and networks (the plan-limits follower)', () => {
  let world: NetworksWorld;
  let basic: { name: string; id: string };

  beforeAll(async () => {
    world = await networksWorld();
    basic = await world.model(['free', 'pro', 'enterprise']);
  });
  afterAll(() => world.close());

  const settle = (at: Date) => world.subject.app.get(BillingClock).tick(at);
  const until = (user: TestCustomer, expected: string[], what: string) =>
    eventually(async () => JSON.stringify(await world.statuses(user)) === JSON.stringify(expected), what);
  /** The networks events of a customer's stream, as stored. */
  const history = async (user: TestCustomer) =>
    (
      await world.subject.db.pool.query<{ type: string; data: Record<string, unknown>; metadata: { actor: { userId: string | null } } }>(
        'SELECT type, data, metadata FROM es_events WHERE stream_id = $1 ORDER BY position',
        [`networks-${user.userId}`],
      )
    ).rows;

  it('a Pro customer with 3 networks downgrades to Free: the 2 newest are suspended with the cause, kept by choice, resumed on upgrading', async () => {
    const user = await world.customer('pro');
    for (const name of ['a', 'b', 'c']) await world.create(user, name, basic.name);
    const cancelled = await user.post('/subscriptions/cancel/').expect(200);
    await settle(new Date(Date.parse(cancelled.body.expires_at as string) + 1000));

    await until(user, ['a:active', 'b:suspended', 'c:suspended'], 'the downgrade to reach the networks');
    const after = await world.list(user);
    expect(after.limits).toEqual({ max_networks: 1, max_clients_per_network: 2, used: 3 });
    expect(after.networks[2]).toMatchObject({
      suspended_cause: 'plan_limit',
      suspended_reason: 'Your plan changed to Free, which allows fewer networks. Choose which networks to keep.',
    });
    const suspensions = (await history(user)).filter((e) => e.type === 'NetworkSuspended');
    expect(suspensions.map((e) => e.data.networkId)).toEqual([after.networks[2]!.id, after.networks[1]!.id]); // newest first
    expect(suspensions[0]!.data.cause).toMatchObject({
      kind: 'plan_limit',
      change: { planId: 'free', planName: 'Free', source: 'subscription' },
    });
    expect(suspensions[0]!.metadata.actor.userId).toBeNull(); // the system, not the customer

    // The customer chooses the newest; the cap still holds, so the oldest is suspended instead.
    const refused = await user.post('/networks/keep/', { network_ids: [after.networks[1]!.id, after.networks[2]!.id] }).expect(403);
    expect(refused.body.message).toBe('Your Free plan allows 1 network. Choose at most that many to keep.');
    await user.post('/networks/keep/', { network_ids: [after.networks[2]!.id] }).expect(200);
    expect(await world.statuses(user)).toEqual(['a:suspended', 'b:suspended', 'c:active']);
    expect((await world.list(user)).networks[0]!.suspended_reason).toBe('Not among the networks you chose to keep on your Free plan.');

    await world.subscribe(user, 'pro');
    await until(user, ['a:active', 'b:active', 'c:active'], 'the upgrade to resume every network');
  });

  it('staff lower a plan’s network limit: every customer on it keeps their oldest, and the newest are suspended', async () => {
    await world.staff('PUT', '/admin-panel/plans/free', { max_networks: 3 });
    const ann = await world.customer();
    const bob = await world.customer();
    for (const user of [ann, bob]) for (const name of ['x', 'y', 'z']) await world.create(user, name, basic.name);

    await world.staff('PUT', '/admin-panel/plans/free', { max_networks: 1 });
    for (const user of [ann, bob]) await until(user, ['x:active', 'y:suspended', 'z:suspended'], 'the lower limit');
    expect((await world.list(ann)).networks[1]!.suspended_reason).toBe(
      'The Free plan now allows fewer networks. Choose which networks to keep.',
    );

    await world.staff('PUT', '/admin-panel/plans/free', { max_networks: 2 });
    for (const user of [ann, bob]) await until(user, ['x:active', 'y:active', 'z:suspended'], 'the raised limit, oldest first');
    await world.staff('PUT', '/admin-panel/plans/free', { max_networks: 1 });
    for (const user of [ann, bob]) await until(user, ['x:active', 'y:suspended', 'z:suspended'], 'the limit back');
  });

  it('a model removed from a plan suspends its networks there, and they resume when it is back', async () => {
    const model = await world.model(['free', 'pro']);
    const free = await world.customer();
    const pro = await world.customer('pro');
    await world.create(free, 'on-free', model.name);
    await world.create(pro, 'on-pro', model.name);

    await world.staff('PUT', `/models/admin/${model.id}/access/`, { allowed_plans: ['pro'] });
    await until(free, ['on-free:suspended'], 'the model to leave the Free plan');
    expect((await world.list(free)).networks[0]).toMatchObject({
      suspended_cause: 'model_not_allowed',
      suspended_reason: `Your Free plan no longer includes the model ${model.name}.`,
    });
    expect(await world.statuses(pro)).toEqual(['on-pro:active']);
    await free.post('/networks/keep/', { network_ids: [(await world.list(free)).networks[0]!.id] }).expect(403);

    await world.staff('PUT', `/models/admin/${model.id}/access/`, { allowed_plans: ['pro', 'free'] });
    await until(free, ['on-free:active'], 'the model to be back');
  });

  it('disconnects nobody and suspends nothing while the plan allows what the customer has', async () => {
    const user = await world.customer('pro');
    await world.create(user, 'solo', basic.name);
    await world.subscribe(user, 'enterprise');
    const end = Date.now() + 40 * DAY;
    await settle(new Date(end));
    await eventually(async () => (await user.get('/plan/').expect(200)).body.plan === 'enterprise', 'enterprise');
    expect(await world.statuses(user)).toEqual(['solo:active']);
    expect((await history(user)).map((e) => e.type)).toEqual(['NetworkCreated']);
  });
});
