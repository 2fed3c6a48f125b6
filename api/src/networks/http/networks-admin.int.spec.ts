import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { AdminNetworkList, JoinCode } from '@meshwork/contracts';
import { eventually } from '@meshwork/testkit/eventually';
import type { TestCustomer } from '@meshwork/testkit/api/accounts';
import { deviceHost, signInDevice } from '@meshwork/testkit/api/devices';
import { networksWorld, type NetworksWorld } from '@meshwork/testkit/api/network-kit';

/** Issue 12, section 4: the console's view of a customer's networks, for staff only. */
describe('GET /admin-panel/users/{id}/networks/', () => {
  let world: NetworksWorld;
  beforeAll(async () => {
    world = await networksWorld();
  });
  afterAll(() => world.close());

  /** A host and one client on the network, by the membership calls (the client joins from its own session). */
  async function seat(user: TestCustomer, networkId: string, host: string, clientToken: string): Promise<void> {
    await user.post(`/networks/${networkId}/host/`, { device_id: host }).expect(200);
    const { code } = (await user.post(`/networks/${networkId}/join-code/`).expect(200)).body as JoinCode;
    await request(world.subject.app.getHttpServer())
      .post('/api/v1/networks/join/')
      .set('Authorization', `Bearer ${clientToken}`)
      .send({ code })
      .expect(200);
  }

  it('lists a customer’s networks oldest first with the host named, the clients counted and a suspension’s reason', async () => {
    const kept = await world.model(['pro']);
    const dropped = await world.model(['pro']);
    const user = await world.customer('pro');
    const host = await signInDevice(deviceHost(world.subject.app), user, 'Office server');
    const client = await signInDevice(deviceHost(world.subject.app), user, 'Reception laptop');
    const office = await world.create(user, 'office', kept.name);
    const lab = await world.create(user, 'lab', dropped.name);
    await seat(user, office.id, host.device_id, client.access_token);

    await world.staff('PUT', `/models/admin/${dropped.id}/access/`, { allowed_plans: ['enterprise'] });
    await eventually(async () => (await world.statuses(user)).includes('lab:suspended'), 'the model to leave the Pro plan');

    const listed = (await world.staff('GET', `/admin-panel/users/${user.userId}/networks/`)) as unknown as AdminNetworkList;
    // The older path stays an alias of the same route.
    expect(await world.staff('GET', `/admin/users/${user.userId}/networks/`)).toEqual(listed);
    expect(listed.networks).toEqual([
      {
        id: office.id,
        name: 'office',
        model: kept.name,
        status: 'active',
        suspended_cause: null,
        suspended_reason: null,
        host_device_id: host.device_id,
        host_device_name: 'Office server',
        client_count: 1,
        created_at: office.created_at,
      },
      {
        id: lab.id,
        name: 'lab',
        model: dropped.name,
        status: 'suspended',
        suspended_cause: 'model_not_allowed',
        suspended_reason: `Your Pro plan no longer includes the model ${dropped.name}.`,
        host_device_id: null,
        host_device_name: null,
        client_count: 0,
        created_at: lab.created_at,
      },
    ]);
  });

  it('refuses a customer (even about themselves), answers an unknown user with no networks, and a bad id with 400', async () => {
    const model = await world.model(['free']);
    const user = await world.customer();
    await world.create(user, 'home', model.name);
    await user.get(`/admin-panel/users/${user.userId}/networks/`).expect(403);
    expect(await world.staff('GET', `/admin-panel/users/${randomUUID()}/networks/`)).toEqual({ networks: [] });
    await expect(world.staff('GET', '/admin-panel/users/not-a-user/networks/')).rejects.toThrow('answered 400');
  });
});
