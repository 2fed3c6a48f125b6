import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { AdminPayment, Payment, PlanInfo, Subscription } from '@meshwork/contracts';
import { registerAccount, registerCustomer } from '@meshwork/testkit/api/accounts';
import { startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';
import { BillingClock } from '../application/billing-clock';

/** The plans' API terms as seeded (issue 35): what a plan change must carry with it. */
const FREE_API = { api_token_scope: 'read', api_requests_per_minute: 60, webhooks: false, usage_history_days: 7 };
const PRO_API = { api_token_scope: 'read_write', api_requests_per_minute: 600, webhooks: false, usage_history_days: 90 };
const ENTERPRISE_API = { api_token_scope: 'read_write', api_requests_per_minute: 3000, webhooks: true, usage_history_days: 90 };

const DAY = 86_400_000;

/** Plans, subscriptions and payments with the built-in simulated checkout, against real PostgreSQL. */
describe('billing with the simulated checkout', () => {
  let subject: TestApp;
  let staffToken: string;
  beforeAll(async () => {
    subject = await startTestApp({ STRIPE_SECRET_KEY: '', AUTH_RATE_LIMIT_PER_MINUTE: '1000' });
    staffToken = (await registerAccount(subject.app, 'staff', randomUUID().slice(0, 8), true)).tokens.access;
  });
  afterAll(() => subject.close());

  const http = () => request(subject.app.getHttpServer());
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

  const customer = () => registerCustomer(subject.app);
  type Customer = Awaited<ReturnType<typeof customer>>;

  /** Subscribes through the simulated checkout, as the site does. */
  async function subscribe(user: Customer, planId: string, cycle = 'monthly') {
    const created = await user
      .post('/subscriptions/create/', { plan_id: planId, payment_method: 'stripe', billing_cycle: cycle })
      .expect(201);
    expect(created.body.outcome).toBe('checkout');
    const sessionId = String(created.body.payment_url).split('/').pop()!;
    await user.post(`/subscriptions/simulated-checkout/${sessionId}/complete/`).expect(200);
    return sessionId;
  }

  const subscriptionOf = async (user: Customer) => (await user.get('/subscriptions/subscription/').expect(200)).body as Subscription;
  const paymentsOf = async (user: Customer) => (await user.get('/subscriptions/list/').expect(200)).body.payments as Payment[];
  const planInfoOf = async (user: Customer) => (await user.get('/plan/').expect(200)).body as PlanInfo;
  const tick = (at: Date) => subject.app.get(BillingClock).tick(at);

  describe('plans', () => {
    it('sells the seeded Free, Pro and Enterprise plans with the comparison table’s terms, publicly', async () => {
      const { body } = await http().get('/api/v1/subscriptions/plans/').expect(200);
      expect(body.map((p: { slug: string }) => p.slug)).toEqual(['free', 'pro', 'enterprise']);
      const [free, pro, enterprise] = body;
      expect(free).toMatchObject({
        price: '0.00',
        max_networks: 1,
        max_clients_per_network: 2,
        model_access: 'Basic',
        api_access: 'Limited',
      });
      expect(pro).toMatchObject({ price: '29.00', yearly_price: '288.84', max_networks: 5, max_clients_per_network: 10, popular: true });
      expect(enterprise).toMatchObject({ price: '99.00', yearly_price: '986.04', max_networks: 999, api_access: 'Full + Webhooks' });
      expect(pro.features).toContain('Priority Support');
      expect(enterprise.features).toEqual(expect.arrayContaining(['Priority Support', 'Custom Integrations', 'Advanced Analytics']));
    });

    it('puts a new user on the free plan with its limits, and offers the upgrades', async () => {
      const user = await customer();
      const info = await planInfoOf(user);
      expect(info).toMatchObject({
        plan_slug: 'free',
        plan_name: 'Free',
        expires_at: null,
        permissions: { max_networks: 1, max_clients_per_network: 2 },
        download_info: { download_access: true },
      });
      expect(info.plan_transitions.available_upgrades.map((u) => [u.slug, u.upgrade_price])).toEqual([
        ['pro', '29.00'],
        ['enterprise', '99.00'],
      ]);
      expect(await subscriptionOf(user)).toMatchObject({ plan_id: 'free', status: 'free', price: '0.00', next_billing_date: null });
      const profile = await user.get('/profile/').expect(200);
      expect(profile.body).toMatchObject({ subscription_plan: 'free', max_clients: 2 });
    });

    it('explains the methods: the simulated checkout says it is one', async () => {
      const { body } = await http().get('/api/v1/subscriptions/methods/').expect(200);
      expect(body).toEqual([{ id: 'stripe', name: expect.stringMatching(/simulated/), simulated: true }]);
    });
  });

  describe('checkout', () => {
    it('activates Pro after the simulated payment, records the payment, and raises the limits', async () => {
      const user = await customer();
      const created = await user.post('/subscriptions/create/', { plan_id: 'pro', payment_method: 'stripe' }).expect(201);
      expect(created.body).toMatchObject({ outcome: 'checkout', payment_url: expect.stringMatching(/^\/checkout\/simulated\/sim_cs_/) });
      const sessionId = String(created.body.payment_url).split('/').pop()!;
      const session = await user.get(`/subscriptions/simulated-checkout/${sessionId}/`).expect(200);
      expect(session.body).toMatchObject({ plan_id: 'pro', plan_name: 'Pro', amount: '29.00', billing_cycle: 'monthly', status: 'open' });
      expect((await subscriptionOf(user)).plan_id).toBe('free'); // nothing until it is paid

      await user.post(`/subscriptions/simulated-checkout/${sessionId}/complete/`).expect(200);
      const subscription = await subscriptionOf(user);
      expect(subscription).toMatchObject({
        plan_id: 'pro',
        status: 'active',
        price: '29.00',
        billing_cycle: 'monthly',
        payment_method: 'simulated',
      });
      expect(Date.parse(subscription.expires_at!) - Date.parse(subscription.started_at!)).toBe(30 * DAY);
      expect(await paymentsOf(user)).toEqual([
        expect.objectContaining({ amount: '29.00', status: 'completed', plan_name: 'Pro', refunded_amount: '0.00' }),
      ]);
      expect((await planInfoOf(user)).permissions).toEqual({ max_networks: 5, max_clients_per_network: 10, ...PRO_API });
      expect((await user.get('/profile/').expect(200)).body).toMatchObject({ subscription_plan: 'pro', max_clients: 10 });

      // Paying twice, or verifying afterwards, changes nothing.
      await user.post(`/subscriptions/simulated-checkout/${sessionId}/complete/`).expect(200);
      await user.post('/subscriptions/verify/', { session_id: sessionId }).expect(200);
      expect(await paymentsOf(user)).toHaveLength(1);
    });

    it('bills the yearly price for the yearly cycle', async () => {
      const user = await customer();
      await subscribe(user, 'enterprise', 'yearly');
      const subscription = await subscriptionOf(user);
      expect(subscription).toMatchObject({ plan_id: 'enterprise', billing_cycle: 'yearly', price: '986.04' });
      expect(Date.parse(subscription.expires_at!) - Date.parse(subscription.started_at!)).toBe(365 * DAY);
    });

    it('leaves the plan free when the checkout is abandoned', async () => {
      const user = await customer();
      const created = await user.post('/subscriptions/create/', { plan_id: 'pro' }).expect(201);
      const sessionId = String(created.body.payment_url).split('/').pop()!;
      await user.post(`/subscriptions/simulated-checkout/${sessionId}/cancel/`).expect(200);
      await user.post(`/subscriptions/simulated-checkout/${sessionId}/complete/`).expect(400);
      expect((await subscriptionOf(user)).plan_id).toBe('free');
      expect(await paymentsOf(user)).toEqual([]);
    });

    it('answers bad input with field errors', async () => {
      const user = await customer();
      const unknown = await user.post('/subscriptions/create/', { plan_id: 'platinum' }).expect(400);
      expect(unknown.body).toMatchObject({ message: 'This plan is not available.', errors: { plan_id: ['This plan is not available.'] } });
      const cycle = await user.post('/subscriptions/create/', { plan_id: 'pro', billing_cycle: 'weekly' }).expect(400);
      expect(cycle.body.errors.billing_cycle).toEqual(["Billing cycle must be 'monthly' or 'yearly'"]);
      const method = await user.post('/subscriptions/create/', { plan_id: 'pro', payment_method: 'paypal' }).expect(400);
      expect(method.body.errors.payment_method).toEqual(["Payment method must be 'stripe'"]);
      await user
        .post('/subscriptions/create/', {})
        .expect(400)
        .then((r) => expect(r.body.errors.plan_id).toEqual(['Plan is required']));
      await user.post('/subscriptions/verify/', {}).expect(400);
    });
  });

  describe('a free user cannot exceed the free plan through the api', () => {
    it('gets no paid plan without paying, from any call', async () => {
      const user = await customer();
      const other = await customer();
      const created = await other.post('/subscriptions/create/', { plan_id: 'enterprise' }).expect(201);
      const othersSession = String(created.body.payment_url).split('/').pop()!;

      await user.post(`/subscriptions/simulated-checkout/${othersSession}/complete/`).expect(404); // someone else's checkout
      await user.get(`/subscriptions/simulated-checkout/${othersSession}/`).expect(404);
      await user.post('/subscriptions/verify/', { session_id: othersSession }).expect(404);
      await user.post('/subscriptions/verify/', { session_id: 'sim_cs_made_up' }).expect(404);
      await user.post('/payments/stripe/webhook/', { type: 'checkout.session.completed' }).expect(404); // no Stripe here
      await http()
        .patch('/api/v1/profile/')
        .set(bearer(user.token))
        .send({ subscription_plan: 'enterprise', max_clients: 999 })
        .expect(400); // not fields anyone may set
      await user.post('/subscriptions/cancel/').expect(400);
      await user
        .post('/subscriptions/create/', { plan_id: 'free' })
        .expect(201)
        .then((r) => expect(r.body.outcome).toBe('unchanged'));
      for (const path of ['/admin-panel/plans', '/admin-panel/payments', '/admin-panel/dashboard/']) await user.get(path).expect(403);
      await user.post('/admin-panel/plans', { name: 'Mine', price: 0, max_clients: 999 }).expect(403);

      expect(await planInfoOf(user)).toMatchObject({ plan_slug: 'free', permissions: { max_networks: 1, max_clients_per_network: 2 } });
      expect((await user.get('/profile/').expect(200)).body).toMatchObject({ subscription_plan: 'free', max_clients: 2 });
      expect(await paymentsOf(user)).toEqual([]);
    });

    it('cannot start a second checkout over a paid subscription', async () => {
      const user = await customer();
      await subscribe(user, 'pro');
      // From a paid plan, "create" changes plan instead; a checkout for it would bill twice.
      const change = await user.post('/subscriptions/create/', { plan_id: 'pro' }).expect(201);
      expect(change.body.outcome).toBe('unchanged');
    });
  });

  describe('plan changes', () => {
    it('upgrades at once with a prorated charge', async () => {
      const user = await customer();
      await subscribe(user, 'pro');
      const upgraded = await user.post('/subscriptions/create/', { plan_id: 'enterprise' }).expect(201);
      expect(upgraded.body).toMatchObject({ outcome: 'upgraded', subscription: { plan_id: 'enterprise', price: '99.00' } });
      expect(upgraded.body.payment_url).toBeUndefined();
      const [proration] = await paymentsOf(user);
      // 70.00 for the whole period; the period has only just begun.
      expect(Number(proration!.amount)).toBeGreaterThan(69.9);
      expect(Number(proration!.amount)).toBeLessThanOrEqual(70);
      expect(proration!.description).toBe('Upgrade to Enterprise (prorated)');
      expect((await planInfoOf(user)).permissions).toEqual({ max_networks: 999, max_clients_per_network: 999, ...ENTERPRISE_API });
    });

    it('downgrades at the period end, then renews at the lower price', async () => {
      const user = await customer();
      await subscribe(user, 'enterprise');
      const scheduled = await user.post('/subscriptions/create/', { plan_id: 'pro' }).expect(201);
      expect(scheduled.body).toMatchObject({
        outcome: 'downgrade_scheduled',
        subscription: { plan_id: 'enterprise', scheduled_plan_id: 'pro' },
      });
      expect(scheduled.body.message).toMatch(/changes to Pro on .*at the end of this billing period/);
      expect((await planInfoOf(user)).plan_slug).toBe('enterprise'); // until the period ends

      const end = Date.parse((await subscriptionOf(user)).expires_at!);
      await tick(new Date(end - 1000));
      expect((await subscriptionOf(user)).plan_id).toBe('enterprise');
      await tick(new Date(end + 1000));
      const renewed = await subscriptionOf(user);
      expect(renewed).toMatchObject({ plan_id: 'pro', price: '29.00', scheduled_plan_id: null, status: 'active' });
      expect(Date.parse(renewed.expires_at!)).toBe(end + 30 * DAY);
      expect((await paymentsOf(user))[0]).toMatchObject({ amount: '29.00', description: 'Pro renewal', status: 'completed' });
      expect((await planInfoOf(user)).permissions).toEqual({ max_networks: 5, max_clients_per_network: 10, ...PRO_API });
      await tick(new Date(end + 2000)); // nothing more is due
      expect(await paymentsOf(user)).toHaveLength(2);
    });

    it('choosing the current plan again undoes a scheduled change', async () => {
      const user = await customer();
      await subscribe(user, 'enterprise');
      await user.post('/subscriptions/create/', { plan_id: 'pro' }).expect(201);
      const kept = await user.post('/subscriptions/create/', { plan_id: 'enterprise' }).expect(201);
      expect(kept.body).toMatchObject({ outcome: 'unchanged', subscription: { scheduled_plan_id: null } });
    });
  });

  describe('cancellation', () => {
    it('cancels at the period end and then falls back to free', async () => {
      const user = await customer();
      await subscribe(user, 'pro');
      const cancelled = await user.post('/subscriptions/cancel/').expect(200);
      expect(cancelled.body).toMatchObject({ plan_id: 'pro', cancel_at_period_end: true, next_billing_date: null });
      await user.post('/subscriptions/cancel/').expect(200); // once is enough; twice is harmless
      const end = Date.parse(cancelled.body.expires_at);
      await tick(new Date(end + 1000));
      expect(await subscriptionOf(user)).toMatchObject({ plan_id: 'free', status: 'free' });
      expect((await planInfoOf(user)).permissions).toEqual({ max_networks: 1, max_clients_per_network: 2, ...FREE_API });
      expect(await paymentsOf(user)).toHaveLength(1); // no renewal was charged
    });
  });

  describe('refunds from the console', () => {
    it('refunds in parts, never more than was paid, and the customer sees it', async () => {
      const user = await customer();
      await subscribe(user, 'pro');
      const [payment] = await paymentsOf(user);
      const staff = (path: string, body: object) => http().post(`/api/v1${path}`).set(bearer(staffToken)).send(body);

      await staff(`/admin-panel/payments/${payment!.id}/refund/`, { amount: 10 })
        .expect(400)
        .then((r) => expect(r.body.errors.reason).toEqual(['Reason is required']));
      const partial = await staff(`/admin-panel/payments/${payment!.id}/refund/`, { amount: 9.5, reason: 'goodwill' }).expect(200);
      expect(partial.body).toMatchObject({ status: 'completed', refundAmount: 9.5, refundReason: 'goodwill', amount: 29 });
      const tooMuch = await staff(`/admin-panel/payments/${payment!.id}/refund/`, { amount: 19.51, reason: 'again' }).expect(400);
      expect(tooMuch.body.errors.amount).toEqual(['Amount must be at most 19.50']);
      const rest = await staff(`/admin-panel/payments/${payment!.id}/refund/`, { amount: 19.5, reason: 'closing' }).expect(200);
      expect(rest.body).toMatchObject({ status: 'refunded', refundAmount: 29 });
      await staff(`/admin-panel/payments/${payment!.id}/refund/`, { amount: 0.01, reason: 'more' })
        .expect(400)
        .then((r) => expect(r.body.message).toBe('Only completed payments can be refunded.'));
      expect((await paymentsOf(user))[0]).toMatchObject({ status: 'refunded', refunded_amount: '29.00' });
    });

    it('lists payments for staff with search and date filters', async () => {
      const user = await customer();
      await subscribe(user, 'pro');
      const profile = (await user.get('/profile/').expect(200)).body;
      const list = (filter: object) =>
        http()
          .get(`/api/v1/admin-panel/payments?filter=${encodeURIComponent(JSON.stringify(filter))}`)
          .set(bearer(staffToken))
          .expect(200);
      const found = await list({ q: profile.email.toUpperCase() });
      expect(found.body).toEqual([
        expect.objectContaining({ userEmail: profile.email, planName: 'Pro', amount: 29, status: 'completed', paymentMethod: 'simulated' }),
      ]);
      expect(found.headers['content-range']).toBe('payments 0-0/1');
      const byTransaction = await list({ q: (found.body as AdminPayment[])[0]!.transactionId });
      expect(byTransaction.body).toHaveLength(1);
      expect((await list({ q: profile.email, period: 'today' })).body).toHaveLength(1);
      expect((await list({ q: 'nobody-has-this' })).body).toEqual([]);
    });
  });

  describe('plans in the console', () => {
    it('creates, edits, deactivates and deletes a plan; the catalogue follows', async () => {
      const staff = () => http();
      const created = await staff()
        .post('/api/v1/admin-panel/plans')
        .set(bearer(staffToken))
        .send({
          name: 'Team Plus',
          price: 49.5,
          max_clients: 20,
          max_networks: 3,
          features: ['API Access'],
        })
        .expect(201);
      expect(created.body).toMatchObject({
        id: 'team-plus',
        price: '49.50',
        yearly_price: '493.02',
        duration_days: 30,
        is_active: true,
        subscribers: 0,
        tier: 4,
      });
      expect((await http().get('/api/v1/subscriptions/plans/').expect(200)).body.map((p: { slug: string }) => p.slug)).toContain(
        'team-plus',
      );

      const edited = await staff()
        .put('/api/v1/admin-panel/plans/team-plus')
        .set(bearer(staffToken))
        .send({ ...created.body, price: 59 })
        .expect(200);
      expect(edited.body).toMatchObject({ price: '59.00', yearly_price: '587.64' });
      await staff().put('/api/v1/admin-panel/plans/team-plus').set(bearer(staffToken)).send({ is_active: false }).expect(200);
      expect((await http().get('/api/v1/subscriptions/plans/').expect(200)).body.map((p: { slug: string }) => p.slug)).not.toContain(
        'team-plus',
      );
      await staff().delete('/api/v1/admin-panel/plans/team-plus').set(bearer(staffToken)).expect(200, { id: 'team-plus' });
      const list = await staff().get('/api/v1/admin-panel/plans').set(bearer(staffToken)).expect(200);
      expect(list.body.map((p: { id: string }) => p.id)).toEqual(['free', 'pro', 'enterprise']);
      expect(list.headers['content-range']).toBe('plans 0-2/3');
    });

    it('gives subscribers new limits at once when staff change their plan, as an EntitlementsChanged event', async () => {
      await http()
        .post('/api/v1/admin-panel/plans')
        .set(bearer(staffToken))
        .send({ name: 'Growing', price: 10, max_networks: 2, tier: 2 })
        .expect(201);
      const user = await customer();
      await subscribe(user, 'growing');
      expect((await planInfoOf(user)).permissions.max_networks).toBe(2);
      await http()
        .put('/api/v1/admin-panel/plans/growing')
        .set(bearer(staffToken))
        .send({ max_networks: 4, description: 'more room' })
        .expect(200);
      expect((await planInfoOf(user)).permissions.max_networks).toBe(4);
      const { rows } = await subject.db.pool.query(
        "SELECT data FROM es_events WHERE stream_id = $1 AND type = 'EntitlementsChanged' ORDER BY position",
        [`subscription-${user.userId}`],
      );
      expect(rows.map((r) => r.data.maxNetworks)).toEqual([2, 4]);
      await http().put('/api/v1/admin-panel/plans/growing').set(bearer(staffToken)).send({ description: 'wording only' }).expect(200);
      expect(
        (
          await subject.db.pool.query("SELECT count(*)::int AS n FROM es_events WHERE stream_id = $1 AND type = 'EntitlementsChanged'", [
            `subscription-${user.userId}`,
          ])
        ).rows[0].n,
      ).toBe(2);
    });

    it('validates the new-plan form per field and refuses to delete the free plan', async () => {
      const bad = await http()
        .post('/api/v1/admin-panel/plans')
        .set(bearer(staffToken))
        .send({ name: ' ', price: -1, duration_days: 0, max_clients: 0 })
        .expect(400);
      expect(bad.body.errors).toMatchObject({
        name: ['Name is required'],
        price: ['Price must be at least 0'],
        duration_days: ['Duration must be at least 1'],
        max_clients: ['Max clients must be at least 1'],
      });
      await http()
        .post('/api/v1/admin-panel/plans')
        .set(bearer(staffToken))
        .send({ name: 'Pro' })
        .expect(400)
        .then((r) => expect(r.body.errors.slug).toEqual(['A plan with this slug already exists.']));
      await http().delete('/api/v1/admin-panel/plans/free').set(bearer(staffToken)).expect(400);
    });

    it('counts subscribers and keeps an archived plan for its subscribers until their period ends', async () => {
      await http().post('/api/v1/admin-panel/plans').set(bearer(staffToken)).send({ name: 'Short Lived', price: 5, tier: 2 }).expect(201);
      const user = await customer();
      await subscribe(user, 'short-lived');
      expect((await http().get('/api/v1/admin-panel/plans/short-lived').set(bearer(staffToken)).expect(200)).body.subscribers).toBe(1);
      await http().delete('/api/v1/admin-panel/plans/short-lived').set(bearer(staffToken)).expect(200);
      expect(await subscriptionOf(user)).toMatchObject({ plan_id: 'short-lived', status: 'active' });
      await user.post('/subscriptions/create/', { plan_id: 'short-lived' }).expect(400); // no longer sold
    });
  });

  describe('home page calls', () => {
    it('gives the dashboard, usage stats and per-user onboarding preferences', async () => {
      const user = await customer();
      await subscribe(user, 'pro');
      const dashboard = await user.get('/users/dashboard/').expect(200);
      expect(dashboard.body).toMatchObject({
        user: { subscription_plan: 'pro' },
        plan_info: { plan_slug: 'pro' },
        subscription: { plan_id: 'pro' },
        recent_payments: [expect.objectContaining({ amount: '29.00' })],
        preferences: { onboarding_completed: false, show_onboarding: false },
      });
      const stats = await user.get('/users/usage-stats/').expect(200);
      expect(stats.body).toMatchObject({
        networks: { used: 0, limit: 5 },
        clients_per_network: { limit: 10 },
        payments: { total_paid: '29.00', count: 1 },
      });
      const done = await http()
        .patch('/api/v1/users/preferences/')
        .set(bearer(user.token))
        .send({ onboarding_completed: true })
        .expect(200);
      expect(done.body).toEqual({ onboarding_completed: true, show_onboarding: false });
      await http().patch('/api/v1/users/preferences/').set(bearer(user.token)).send({}).expect(400);
      const other = await customer();
      expect((await other.get('/users/dashboard/').expect(200)).body.preferences.onboarding_completed).toBe(false);
      await user
        .get('/downloads/desktop-app-info/')
        .expect(404)
        .then((r) => expect(r.body.message).toBe('No version available for download'));
    });

    it('ends the paid subscription when the account is deleted', async () => {
      const user = await customer();
      await subscribe(user, 'pro');
      await user.post('/users/delete-account/').expect(200);
      const { rows } = await subject.db.pool.query('SELECT type, data FROM es_events WHERE stream_id = $1 ORDER BY position DESC LIMIT 2', [
        `subscription-${user.userId}`,
      ]);
      expect(rows.map((r) => r.type)).toEqual(['EntitlementsChanged', 'SubscriptionExpired']);
      expect(rows[1].data).toEqual({ planId: 'pro', reason: 'account-deleted' });
      await subject.app.get(BillingClock).tick(new Date(Date.now() + 40 * DAY)); // and nothing renews it
      expect(
        (await subject.db.pool.query('SELECT count(*)::int AS n FROM rm_billing.payments WHERE user_id = $1', [user.userId])).rows[0].n,
      ).toBe(1);
    });

    it('gives staff the console dashboard figures from the read models', async () => {
      const stats = async () => (await http().get('/api/v1/admin-panel/dashboard/').set(bearer(staffToken)).expect(200)).body;
      const before = await stats();
      const user = await customer();
      await subscribe(user, 'pro');
      const after = await stats();
      expect(after.totalUsers).toBe(before.totalUsers + 1);
      expect(after.activeSubscriptions).toBe(before.activeSubscriptions + 1);
      expect(after.totalRevenue).toBeCloseTo(before.totalRevenue + 29, 2);
      expect(after.recentUsers[0]).toMatchObject({ id: user.userId, plan: 'pro' });
      expect(after.recentPayments.length).toBeGreaterThan(0);
    });
  });
});
