import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { registerAccount, registerCustomer, TEST_PASSWORD, type TestCustomer } from '@meshwork/testkit/api/accounts';
import { startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';

/**
 * Issue 10's defects at the edge, each as an attacker or a careless operator sent it: bad
 * input gets a 400 in the spec's error body that says what is wrong, never a 500, and
 * nothing is stored that a read model could not write.
 */
describe('strict input at the edge', () => {
  let subject: TestApp;
  let customer: TestCustomer;
  let staff: { Authorization: string };
  const http = () => request(subject.app.getHttpServer());
  const api = (path: string) => `/api/v1${path}`;

  beforeAll(async () => {
    subject = await startTestApp({ STRIPE_SECRET_KEY: '' });
    customer = await registerCustomer(subject.app);
    const tag = randomUUID().slice(0, 8);
    staff = { Authorization: `Bearer ${(await registerAccount(subject.app, 'staff', tag, true)).tokens.access}` };
  });
  afterAll(() => subject.close());

  const plan = (overrides: object) => ({ name: `Team ${randomUUID().slice(0, 6)}`, price: 12, ...overrides });
  const createPlan = (body: object) => http().post(api('/admin-panel/plans/')).set(staff).send(body);

  it('1: a NUL in a profile name is refused, and sign-up keeps working for everyone', async () => {
    const answer = await http()
      .patch(api('/profile/'))
      .set({ Authorization: `Bearer ${customer.token}` })
      .send({ first_name: 'a\u0000b' })
      .expect(400);
    expect(answer.body).toEqual({
      message: 'First name contains characters that are not allowed',
      errors: { first_name: ['First name contains characters that are not allowed'] },
    });
    const newcomer = await registerCustomer(subject.app);
    expect((await newcomer.get('/profile/').expect(200)).body.email).toBe(newcomer.email);
  });

  it('6: lone surrogates are refused rather than stored as U+FFFD', async () => {
    const answer = await http()
      .patch(api('/profile/'))
      .set({ Authorization: `Bearer ${customer.token}`, 'Content-Type': 'application/json' })
      .send('{"last_name":"x\\ud800"}');
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual({ last_name: ['Last name contains characters that are not allowed'] });
  });

  it('2 and 5: limits and durations beyond what the domain allows are refused with their bounds', async () => {
    const clients = await createPlan(plan({ max_clients: 3_000_000_000 })).expect(400);
    expect(clients.body.errors).toEqual({ max_clients: ['Max clients must be at most 999'] });
    const networks = await createPlan(plan({ max_networks: 2 ** 40 })).expect(400);
    expect(networks.body.errors).toEqual({ max_networks: ['Max networks must be at most 999'] });
    const days = await createPlan(plan({ duration_days: 2_000_000_000 })).expect(400);
    expect(days.body.errors).toEqual({ duration_days: ['Duration must be at most 3650'] });
    // The billing read model is not stuck: a valid plan is created and read back at once.
    const created = await createPlan(plan({ max_clients: 999, duration_days: 3650 })).expect(201);
    expect(created.body).toMatchObject({ max_clients: 999, duration_days: 3650 });
  });

  it('4: malformed tokens and ids are refused without a 500, signed in or not', async () => {
    const dashes = '------------------------------------';
    await http()
      .post(api('/refresh/'))
      .send({ refresh: `${dashes}.x` })
      .expect(401);
    await http()
      .post(api('/logout/'))
      .send({ refresh_token: `${dashes}.x` })
      .expect(200);
    const uploads = api(`/models/admin/uploads/${dashes}/`);
    for (const call of [
      http().get(uploads),
      http().delete(uploads),
      http().post(`${uploads}complete/`),
      http().post(`${uploads}parts/`).send({ file: 'a.onnx', part: 1 }),
    ]) {
      const answer = await call.set(staff).expect(400);
      expect(answer.body.errors).toEqual({ uploadId: ['Upload id must be a valid id'] });
    }
  });

  it('6: NUL bytes in bodies, route parameters and list filters are 400s', async () => {
    const bearer = { Authorization: `Bearer ${customer.token}` };
    const expect400 = async (call: request.Test) => {
      const answer = await call;
      expect([answer.status, answer.body.message]).toEqual([400, expect.stringContaining('not allowed')]);
    };
    await expect400(http().post(api('/subscriptions/create/')).set(bearer).send({ plan_id: 'pro\u0000' }));
    await expect400(http().get(api('/subscriptions/simulated-checkout/%00/')).set(bearer));
    await expect400(http().get(api('/models/%00/manifest/')).set(bearer));
    await expect400(http().get(api('/admin-panel/plans/%00/')).set(staff));
    const nulFilter = encodeURIComponent(JSON.stringify({ q: '\u0000' }));
    for (const list of ['users', 'payments', 'plans'])
      await expect400(
        http()
          .get(api(`/admin-panel/${list}/?filter=${nulFilter}`))
          .set(staff),
      );
    await expect400(
      http()
        .post(api(`/admin-panel/payments/${randomUUID()}/refund/`))
        .set(staff)
        .send({ amount: 1, reason: 'a\u0000' }),
    );
    await expect400(createPlan(plan({ name: 'Team\u0000' })));
  });

  it('7: over-long fields say "at most N characters"', async () => {
    const name = await createPlan(plan({ name: 'x'.repeat(81) })).expect(400);
    expect(name.body.errors).toEqual({ name: ['Name must be at most 80 characters'] });
    const reason = await http()
      .post(api(`/admin-panel/payments/${randomUUID()}/refund/`))
      .set(staff)
      .send({ amount: 1, reason: 'r'.repeat(501) })
      .expect(400);
    expect(reason.body.errors).toEqual({ reason: ['Reason must be at most 500 characters'] });
    const long = `${TEST_PASSWORD}${'x'.repeat(129 - TEST_PASSWORD.length)}`;
    const password = await http()
      .post(api('/register/'))
      .send({ email: 'long@example.com', username: 'long_password', password: long, password_confirm: long })
      .expect(400);
    expect(password.body.errors.password).toEqual(['Password must be at most 128 characters']);
  });

  it('8: numbers are numbers: booleans, hex, empty and lists are refused, never coerced', async () => {
    const refund = (amount: unknown) =>
      http()
        .post(api(`/admin-panel/payments/${randomUUID()}/refund/`))
        .set(staff)
        .send({ amount, reason: 'duplicate' });
    for (const amount of [true, '0x1', '', null, []]) {
      const answer = await refund(amount).expect(400);
      expect(answer.body.errors.amount).toBeDefined();
    }
    for (const price of ['', null, []]) {
      const answer = await createPlan(plan({ price })).expect(400);
      expect(answer.body.errors.price).toBeDefined();
    }
    const clients = await createPlan(plan({ max_clients: true })).expect(400);
    expect(clients.body.errors).toEqual({ max_clients: ['Max clients must be a whole number'] });
    // The api's own money text still reads as money.
    const priced = await createPlan(plan({ price: '19.50' })).expect(201);
    expect(priced.body.price).toBe('19.50');
  });
});
