import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import request from 'supertest';
import type { Payment, Subscription } from '@meshwork/contracts';
import { required } from '@meshwork/testkit/infra';
import { registerAccount, registerCustomer } from '@meshwork/testkit/api/accounts';
import { startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';
import { BillingClock } from '../application/billing-clock';
import { PAYMENT_PROVIDER, type PaymentProvider } from '../../platform/payments/payment-provider';

const DAY = 86_400;

/**
 * Billing through Stripe: calls go to stripe-mock (which sends no webhooks), and the tests
 * deliver Stripe's webhook events themselves, signed with the configured secret.
 */
describe('billing with Stripe (stripe-mock and signed webhooks)', () => {
  let subject: TestApp;
  let staffToken: string;
  const stripe = new Stripe(required('STRIPE_SECRET_KEY'));
  const secret = required('STRIPE_WEBHOOK_SECRET');

  beforeAll(async () => {
    subject = await startTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '1000' });
    staffToken = (await registerAccount(subject.app, 'staff', randomUUID().slice(0, 8), true)).tokens.access;
  });
  afterAll(() => subject.close());

  const http = () => request(subject.app.getHttpServer());
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const now = () => Math.floor(Date.now() / 1000);

  /** A customer, with the id of the Stripe subscription their webhooks will name. */
  const customer = async () => ({
    ...(await registerCustomer(subject.app)),
    subscriptionId: `sub_${randomUUID().replaceAll('-', '').slice(0, 14)}`,
  });
  type Customer = Awaited<ReturnType<typeof customer>>;

  /** Posts a Stripe event as Stripe would: the exact bytes, signed. */
  function deliver(type: string, object: object, options: { id?: string; created?: number; signature?: string } = {}) {
    const payload = JSON.stringify({
      id: options.id ?? `evt_${randomUUID().replaceAll('-', '')}`,
      object: 'event',
      type,
      created: options.created ?? now(),
      api_version: '2025-10-29.clover',
      data: { object },
    });
    const signature = options.signature ?? stripe.webhooks.generateTestHeaderString({ payload, secret });
    return http()
      .post('/api/v1/payments/stripe/webhook/')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', signature)
      .send(payload);
  }

  const meta = (user: Customer, planId: string) => ({ userId: user.userId, planId, cycle: 'monthly' });

  const checkoutCompleted = (user: Customer, planId: string, amount: number) => ({
    id: `cs_test_${randomUUID().replaceAll('-', '')}`,
    object: 'checkout.session',
    mode: 'subscription',
    status: 'complete',
    payment_status: 'paid',
    amount_total: amount,
    client_reference_id: user.userId,
    subscription: user.subscriptionId,
    metadata: meta(user, planId),
  });

  const invoice = (
    user: Customer,
    planId: string,
    fields: { reason: string; amount: number; start?: number; end?: number; id?: string },
  ) => ({
    id: fields.id ?? `in_${randomUUID().replaceAll('-', '')}`,
    object: 'invoice',
    billing_reason: fields.reason,
    amount_paid: fields.amount,
    amount_due: fields.amount,
    parent: { subscription_details: { subscription: user.subscriptionId, metadata: meta(user, planId) } },
    lines: { data: [{ period: { start: fields.start ?? now(), end: fields.end ?? now() + 30 * DAY } }] },
    payments: { data: [{ payment: { payment_intent: `pi_${randomUUID().replaceAll('-', '')}` } }] },
  });

  const subscriptionOf = async (user: Customer) => (await user.get('/subscriptions/subscription/').expect(200)).body as Subscription;
  const paymentsOf = async (user: Customer) => (await user.get('/subscriptions/list/').expect(200)).body.payments as Payment[];

  /** A customer on `planId`, paid through Stripe: checkout, then its first invoice. */
  async function subscribed(planId: string, amount: number) {
    const user = await customer();
    await deliver('checkout.session.completed', checkoutCompleted(user, planId, amount)).expect(200);
    await deliver('invoice.paid', invoice(user, planId, { reason: 'subscription_create', amount })).expect(200);
    return user;
  }

  it('starts a Stripe Checkout session and sends the browser to it; nothing changes until Stripe says it is paid', async () => {
    const user = await customer();
    const { body } = await user.post('/subscriptions/create/', { plan_id: 'pro', payment_method: 'stripe' }).expect(201);
    expect(body).toMatchObject({ outcome: 'checkout', payment_url: expect.stringMatching(/^https:\/\/checkout\.stripe\.com\//) });
    expect((await subscriptionOf(user)).plan_id).toBe('free');
    expect((await http().get('/api/v1/subscriptions/methods/').expect(200)).body).toEqual([
      { id: 'stripe', name: 'Card (Stripe)', simulated: false },
    ]);
    await user.get('/subscriptions/simulated-checkout/cs_test_x/').expect(404); // no simulation beside Stripe
  });

  it('refuses webhooks whose signature does not verify', async () => {
    const user = await customer();
    const forged = checkoutCompleted(user, 'enterprise', 9900);
    await deliver('checkout.session.completed', forged, { signature: 't=1,v1=deadbeef' }).expect(400);
    const wrongSecret = new Stripe('sk_test_other').webhooks.generateTestHeaderString({ payload: '{}', secret: 'whsec_wrong' });
    await deliver('checkout.session.completed', forged, { signature: wrongSecret }).expect(400);
    await http().post('/api/v1/payments/stripe/webhook/').set('Content-Type', 'application/json').send('{}').expect(400);
    expect((await subscriptionOf(user)).plan_id).toBe('free');
  });

  it('activates on checkout.session.completed and records the invoice as the payment; the same webhook twice has one effect', async () => {
    const user = await customer();
    const completed = checkoutCompleted(user, 'pro', 2900);
    const eventId = `evt_${randomUUID().replaceAll('-', '')}`;
    await deliver('checkout.session.completed', completed, { id: eventId }).expect(200, { received: true });
    await deliver('checkout.session.completed', completed, { id: eventId }).expect(200, { received: true, duplicate: true });
    expect(await subscriptionOf(user)).toMatchObject({ plan_id: 'pro', status: 'active', payment_method: 'stripe' });

    const first = invoice(user, 'pro', { reason: 'subscription_create', amount: 2900 });
    await deliver('invoice.paid', first).expect(200);
    await deliver('invoice.paid', first).expect(200); // redelivered under a new event id: still one payment
    expect(await paymentsOf(user)).toEqual([expect.objectContaining({ amount: '29.00', status: 'completed', plan_name: 'Pro' })]);
    expect((await user.get('/plan/').expect(200)).body.permissions).toMatchObject({
      max_networks: 5,
      max_clients_per_network: 10,
      api_token_scope: 'read_write',
    });
  });

  it('converges when webhooks arrive out of order', async () => {
    const user = await customer();
    const start = now();
    // The first invoice before the checkout's completion: it activates, the completion adds nothing.
    await deliver(
      'invoice.paid',
      invoice(user, 'pro', { reason: 'subscription_create', amount: 2900, start, end: start + 31 * DAY }),
    ).expect(200);
    await deliver('checkout.session.completed', checkoutCompleted(user, 'pro', 2900)).expect(200);
    const subscription = await subscriptionOf(user);
    expect(subscription).toMatchObject({ plan_id: 'pro', status: 'active' });
    expect(Date.parse(subscription.expires_at!)).toBe((start + 31 * DAY) * 1000);

    // Cancellation news, newest first: the older "not cancelled" must not undo it.
    const stripeSubscription = (cancel: boolean) => ({
      id: user.subscriptionId,
      object: 'subscription',
      cancel_at_period_end: cancel,
      metadata: meta(user, 'pro'),
    });
    await deliver('customer.subscription.updated', stripeSubscription(true), { created: start + 20 }).expect(200);
    await deliver('customer.subscription.updated', stripeSubscription(false), { created: start + 10 }).expect(200);
    expect((await subscriptionOf(user)).cancel_at_period_end).toBe(true);
    await deliver('customer.subscription.updated', stripeSubscription(false), { created: start + 30 }).expect(200);
    expect((await subscriptionOf(user)).cancel_at_period_end).toBe(false);

    // A renewal invoice for a period already known changes nothing.
    await deliver(
      'invoice.paid',
      invoice(user, 'pro', { reason: 'subscription_cycle', amount: 2900, start, end: start + 31 * DAY }),
    ).expect(200);
    expect(Date.parse((await subscriptionOf(user)).expires_at!)).toBe((start + 31 * DAY) * 1000);
  });

  it('upgrades at once through the Stripe subscription, and records the prorated invoice', async () => {
    const user = await subscribed('pro', 2900);
    const upgraded = await user.post('/subscriptions/create/', { plan_id: 'enterprise' }).expect(201);
    expect(upgraded.body).toMatchObject({ outcome: 'upgraded', subscription: { plan_id: 'enterprise' } });
    expect((await user.get('/plan/').expect(200)).body.permissions).toMatchObject({
      max_networks: 999,
      max_clients_per_network: 999,
      webhooks: true,
    });
    // Stripe invoices the proration (always_invoice) and reports it.
    await deliver('invoice.paid', invoice(user, 'enterprise', { reason: 'subscription_update', amount: 6987 })).expect(200);
    expect((await paymentsOf(user))[0]).toMatchObject({ amount: '69.87', description: 'Upgrade to Enterprise (prorated)' });
  });

  it('downgrades at the period end: the renewal invoice brings the lower plan', async () => {
    const user = await subscribed('enterprise', 9900);
    const scheduled = await user.post('/subscriptions/create/', { plan_id: 'pro' }).expect(201);
    expect(scheduled.body).toMatchObject({
      outcome: 'downgrade_scheduled',
      subscription: { plan_id: 'enterprise', scheduled_plan_id: 'pro' },
    });
    const end = Date.parse((await subscriptionOf(user)).expires_at!) / 1000;
    await deliver(
      'invoice.paid',
      invoice(user, 'pro', { reason: 'subscription_cycle', amount: 2900, start: end, end: end + 30 * DAY }),
    ).expect(200);
    expect(await subscriptionOf(user)).toMatchObject({ plan_id: 'pro', scheduled_plan_id: null, status: 'active' });
    expect((await paymentsOf(user))[0]).toMatchObject({ amount: '29.00', description: 'Pro renewal' });
  });

  it('undoing a scheduled downgrade sets the current price back at Stripe, so the renewal charges it', async () => {
    const user = await subscribed('enterprise', 9900);
    const changePlan = jest.spyOn(subject.app.get<PaymentProvider>(PAYMENT_PROVIDER), 'changePlan');
    try {
      await user.post('/subscriptions/create/', { plan_id: 'pro' }).expect(201);
      expect(changePlan).toHaveBeenLastCalledWith(expect.objectContaining({ planId: 'pro', amountCents: 2900, prorate: false }));
      const kept = await user.post('/subscriptions/create/', { plan_id: 'enterprise' }).expect(201);
      expect(kept.body).toMatchObject({ outcome: 'unchanged', subscription: { plan_id: 'enterprise', scheduled_plan_id: null } });
      expect(changePlan).toHaveBeenLastCalledWith(
        expect.objectContaining({ providerSubscriptionId: user.subscriptionId, planId: 'enterprise', amountCents: 9900, prorate: false }),
      );
    } finally {
      changePlan.mockRestore();
    }
  });

  it('goes past due on a failed payment, keeps the plan through the grace period, then falls back to free', async () => {
    const user = await subscribed('pro', 2900);
    await deliver('invoice.payment_failed', invoice(user, 'pro', { reason: 'subscription_cycle', amount: 2900 })).expect(200);
    const pastDue = await subscriptionOf(user);
    expect(pastDue).toMatchObject({ plan_id: 'pro', status: 'past_due', grace_until: expect.any(String) });
    expect((await paymentsOf(user))[0]).toMatchObject({ status: 'failed', amount: '29.00' });
    expect((await user.get('/plan/').expect(200)).body.plan_slug).toBe('pro');

    await subject.app.get(BillingClock).tick(new Date(Date.parse(pastDue.grace_until!) + 1000));
    expect(await subscriptionOf(user)).toMatchObject({ plan_id: 'free', status: 'free' });
    expect((await user.get('/plan/').expect(200)).body.permissions).toMatchObject({
      max_networks: 1,
      max_clients_per_network: 2,
      api_token_scope: 'read',
      webhooks: false,
    });
  });

  it('ends the subscription when Stripe deletes it', async () => {
    const user = await subscribed('pro', 2900);
    await deliver('customer.subscription.deleted', { id: user.subscriptionId, object: 'subscription', metadata: meta(user, 'pro') }).expect(
      200,
    );
    expect((await subscriptionOf(user)).plan_id).toBe('free');
    // Late news about the ended subscription does not bring it back.
    await deliver('checkout.session.completed', checkoutCompleted(user, 'pro', 2900)).expect(200);
    await deliver('invoice.paid', invoice(user, 'pro', { reason: 'subscription_create', amount: 2900 })).expect(200);
    expect((await subscriptionOf(user)).plan_id).toBe('free');
  });

  it('refunds through the Stripe API from the console, in parts; the charge.refunded webhook does not count them twice', async () => {
    const user = await subscribed('pro', 2900);
    const [payment] = await paymentsOf(user);
    const refund = (amount: number) =>
      http().post(`/api/v1/admin-panel/payments/${payment!.id}/refund/`).set(bearer(staffToken)).send({ amount, reason: 'service outage' });
    const first = await refund(10).expect(200);
    expect(first.body).toMatchObject({ status: 'completed', refundAmount: 10 });
    await refund(19.01).expect(400);
    const second = await refund(19).expect(200);
    expect(second.body).toMatchObject({ status: 'refunded', refundAmount: 29 });

    // Stripe then reports the refunds it made, with their ids: already recorded, nothing changes.
    const events = await subject.db.pool.query<{ data: { refundId: string; amountCents: number } }>(
      "SELECT data FROM es_events WHERE stream_id = $1 AND type = 'PaymentRefunded' ORDER BY position",
      [`payment-${payment!.id}`],
    );
    const paymentIntent = (await subject.db.pool.query('SELECT refund_target FROM rm_billing.payments WHERE id = $1', [payment!.id]))
      .rows[0].refund_target;
    await deliver('charge.refunded', {
      id: `ch_${randomUUID().replaceAll('-', '')}`,
      object: 'charge',
      payment_intent: paymentIntent,
      refunds: { data: events.rows.map((e) => ({ id: e.data.refundId, amount: e.data.amountCents, metadata: {} })) },
    }).expect(200);
    expect((await paymentsOf(user))[0]).toMatchObject({ status: 'refunded', refunded_amount: '29.00' });
    expect(
      (
        await subject.db.pool.query("SELECT count(*)::int AS n FROM es_events WHERE type = 'PaymentRefunded' AND stream_id = $1", [
          `payment-${payment!.id}`,
        ])
      ).rows[0].n,
    ).toBe(2);
  });

  it('records a refund made at Stripe directly (charge.refunded with a new refund id)', async () => {
    const user = await subscribed('pro', 2900);
    const [payment] = await paymentsOf(user);
    const paymentIntent = (await subject.db.pool.query('SELECT refund_target FROM rm_billing.payments WHERE id = $1', [payment!.id]))
      .rows[0].refund_target;
    await deliver('charge.refunded', {
      id: `ch_${randomUUID().replaceAll('-', '')}`,
      object: 'charge',
      payment_intent: paymentIntent,
      refunds: { data: [{ id: `re_${randomUUID().replaceAll('-', '')}`, amount: 500, metadata: {} }] },
    }).expect(200);
    expect((await paymentsOf(user))[0]).toMatchObject({ status: 'completed', refunded_amount: '5.00' });
  });
});
