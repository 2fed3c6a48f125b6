import type { Network, NetworkList } from '@meshwork/contracts';
import { networksWorld, type NetworksWorld } from '@meshwork/testkit/api/network-kit';

/** Issue 12, section 2: the networks calls, every limit enforced by the server. */
describe('networks calls', () => {
  let world: NetworksWorld;
  let basic: { name: string; id: string };
  let advanced: { name: string; id: string };

  beforeAll(async () => {
    world = await networksWorld();
    basic = await world.model(['free', 'pro']);
    advanced = await world.model(['pro']);
  });
  afterAll(() => world.close());

  it('creates a Free network by the model name, lists it with the limits in use, and refuses a second one', async () => {
    const user = await world.customer();
    const created = await world.create(user, 'head-office', basic.name);
    expect(created).toEqual({
      id: expect.any(String),
      name: 'head-office',
      model: basic.name,
      status: 'active',
      suspended_cause: null,
      suspended_reason: null,
      host: null,
      host_certificate_sha256: null,
      clients: { count: 0, devices: [] },
      created_at: expect.any(String),
    });
    expect(await world.list(user)).toEqual({ networks: [created], limits: { max_networks: 1, max_clients_per_network: 2, used: 1 } });
    expect((await user.get(`/networks/${created.id}/`).expect(200)).body).toEqual(created);

    const refused = await user.post('/networks/create/', { name: 'branch', model_id: basic.name }).expect(403);
    expect(refused.body).toEqual({ message: 'Your Free plan allows 1 network. Upgrade to add more.' });
    expect((await world.list(user)).limits.used).toBe(1);
    expect((await user.get('/users/usage-stats/').expect(200)).body).toMatchObject({ networks: { used: 1, limit: 1 } });
  });

  it('refuses a model the plan does not include, and one that does not exist, by field', async () => {
    const user = await world.customer();
    const refused = await user.post('/networks/create/', { name: 'lab', model_id: advanced.name }).expect(403);
    expect(refused.body.message).toBe(
      `Your Free plan does not include the model ${advanced.name}. Upgrade to use it, or choose another model.`,
    );
    const unknown = await user.post('/networks/create/', { name: 'lab', model_id: 'no_such_model' }).expect(400);
    expect(unknown.body).toMatchObject({ errors: { model_id: ['There is no model "no_such_model". Choose one from the list.'] } });
    const bad = await user.post('/networks/create/', { name: '', model: 1 }).expect(400);
    expect(Object.keys(bad.body.errors as object).sort()).toEqual(['model_id', 'name']);
    expect((await world.list(user)).networks).toEqual([]);
  });

  it('accepts the catalog id as model_id, renames, refuses a name twice, and deletes', async () => {
    const user = await world.customer('pro');
    const office = await world.create(user, 'office', advanced.id);
    expect(office.model).toBe(advanced.name);
    const lab = await world.create(user, 'lab', basic.name);
    expect((await user.post('/networks/create/', { name: 'OFFICE', model_id: basic.name }).expect(409)).body).toEqual({
      message: 'You already have a network with this name.',
      errors: { name: ['You already have a network with this name.'] },
    });

    const renamed = await world.patch(user, `/networks/${lab.id}/`, { name: 'garage' }).expect(200);
    expect(renamed.body).toMatchObject({ id: lab.id, name: 'garage' });
    await world.patch(user, `/networks/${lab.id}/`, { name: 'office' }).expect(409);

    expect((await world.remove(user, `/networks/${office.id}/`).expect(200)).body).toEqual({ id: office.id });
    await user.get(`/networks/${office.id}/`).expect(404);
    await world.remove(user, `/networks/${office.id}/`).expect(404);
    expect(((await world.list(user)) as NetworkList).networks.map((n: Network) => n.name)).toEqual(['garage']);
  });

  it("answers another customer's network as not found, a bad id as a field error, and nothing without a session", async () => {
    const owner = await world.customer();
    const network = await world.create(owner, 'mine', basic.name);
    const other = await world.customer();
    await other.get(`/networks/${network.id}/`).expect(404);
    await world.patch(other, `/networks/${network.id}/`, { name: 'theirs' }).expect(404);
    await world.remove(other, `/networks/${network.id}/`).expect(404);
    expect((await other.get('/networks/not-an-id/').expect(400)).body).toMatchObject({ errors: { id: ['Network must be a valid id'] } });
    const anonymous = await fetch(`${world.base}/api/v1/networks/`);
    expect(anonymous.status).toBe(401);
    expect((await world.list(owner)).networks[0]!.name).toBe('mine');
  });

  it('keeps a chosen network, and refuses one that is not the customer’s or an empty choice', async () => {
    const user = await world.customer();
    const network = await world.create(user, 'only', basic.name);
    const kept = await user.post('/networks/keep/', { network_ids: [network.id] }).expect(200);
    expect((kept.body as NetworkList).networks.map((n) => n.status)).toEqual(['active']);
    await user.post('/networks/keep/', { network_ids: ['7d3c9a9e-0000-4000-8000-000000000000'] }).expect(404);
    await user.post('/networks/keep/', { network_ids: [] }).expect(400);
  });
});
