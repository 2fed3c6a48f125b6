import type { AdminDashboardStats } from '@meshwork/contracts';
import { DeviceDirectory } from '../../networks/application/devices/device-directory';
import { deviceHost, signInDevice } from '@meshwork/testkit/api/devices';
import { networksWorld, type NetworksWorld } from '@meshwork/testkit/api/network-kit';
import { eventually } from '@meshwork/testkit/eventually';
import { registerCustomer, type TestCustomer } from '@meshwork/testkit/api/accounts';

describe('console dashboard figures', () => {
  let world: NetworksWorld;
  beforeAll(async () => {
    world = await networksWorld();
  });
  afterAll(() => world.close());

  const stats = async () => (await world.staff('GET', '/admin-panel/dashboard/')) as unknown as AdminDashboardStats;

  async function subscribeToPro(user: TestCustomer): Promise<void> {
    const created = await user.post('/subscriptions/create/', { plan_id: 'pro' }).expect(201);
    await user.post(`/subscriptions/simulated-checkout/${String(created.body.payment_url).split('/').pop()}/complete/`).expect(200);
  }

  it('counts users, revenue and subscriptions, and names the plan and email of recent users and payments', async () => {
    const ada = await registerCustomer(world.subject.app);
    const bob = await registerCustomer(world.subject.app);
    await subscribeToPro(ada);
    await subscribeToPro(bob);
    await bob.post('/users/delete-account/').expect(200);

    const figures = await stats();
    expect(figures).toMatchObject({
      totalUsers: 2,
      totalRevenue: 58,
      activeSubscriptions: 1,
      monthlyGrowth: 100,
      totalDevices: 0,
      activeDevices: 0,
      totalNetworks: 0,
      suspendedNetworks: 0,
    });
    expect(figures.recentUsers.map((u) => [u.email, u.plan])).toEqual([
      [ada.email, 'pro'],
      [expect.stringMatching(/^staff-/), 'free'],
    ]);
    // Newest first; a deleted user's payment stays, without an email.
    expect(figures.recentPayments.map((p) => [p.user, p.plan, p.amount, p.status])).toEqual([
      ['', 'Pro', 29, 'completed'],
      [ada.email, 'Pro', 29, 'completed'],
    ]);
  });

  it('counts devices (revoked ones apart) and networks (suspended ones apart)', async () => {
    const kept = await world.model(['pro']);
    const dropped = await world.model(['pro']);
    const cy = await world.customer('pro');
    const desk = await signInDevice(deviceHost(world.subject.app), cy, 'Desk');
    await signInDevice(deviceHost(world.subject.app), cy, 'Laptop');
    await world.staff('POST', `/admin/devices/${desk.device_id}/revoke/`);
    await eventually(async () => (await world.subject.app.get(DeviceDirectory).devicesOf(cy.userId)).some((d) => d.status === 'revoked'));
    await world.create(cy, 'office', kept.name);
    await world.create(cy, 'lab', dropped.name);
    await world.staff('PUT', `/models/admin/${dropped.id}/access/`, { allowed_plans: ['enterprise'] });
    await eventually(async () => (await world.statuses(cy)).includes('lab:suspended'), 'the model to leave the Pro plan');

    expect(await stats()).toMatchObject({ totalDevices: 2, activeDevices: 1, totalNetworks: 2, suspendedNetworks: 1 });
  });
});
