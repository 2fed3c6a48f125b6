import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { AdminDashboardStats } from '@meshwork/contracts';
import { registerAccount, registerCustomer, type TestCustomer } from '../../testing/accounts';
import { startTestApp, type TestApp } from '../../testing/test-app';

describe('console dashboard figures', () => {
  let subject: TestApp;
  let staffToken: string;
  beforeAll(async () => {
    subject = await startTestApp({ STRIPE_SECRET_KEY: '', AUTH_RATE_LIMIT_PER_MINUTE: '1000' });
    staffToken = (await registerAccount(subject.app, 'staff', randomUUID().slice(0, 6), true)).tokens.access;
  });
  afterAll(() => subject.close());

  const stats = async () =>
    (
      await request(subject.app.getHttpServer())
        .get('/api/v1/admin-panel/dashboard/')
        .set('Authorization', `Bearer ${staffToken}`)
        .expect(200)
    ).body as AdminDashboardStats;

  async function subscribeToPro(user: TestCustomer): Promise<void> {
    const created = await user.post('/subscriptions/create/', { plan_id: 'pro' }).expect(201);
    await user.post(`/subscriptions/simulated-checkout/${String(created.body.payment_url).split('/').pop()}/complete/`).expect(200);
  }

  it('counts users, revenue and subscriptions, and names the plan and email of recent users and payments', async () => {
    const ada = await registerCustomer(subject.app);
    const bob = await registerCustomer(subject.app);
    await subscribeToPro(ada);
    await subscribeToPro(bob);
    await bob.post('/users/delete-account/').expect(200);

    const figures = await stats();
    expect(figures).toMatchObject({ totalUsers: 2, totalRevenue: 58, activeSubscriptions: 1, monthlyGrowth: 100 });
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
});
