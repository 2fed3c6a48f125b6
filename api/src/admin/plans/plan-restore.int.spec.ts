import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { AdminPlan, Plan } from '@meshwork/contracts';
import { registerAccount, registerCustomer } from '@meshwork/testkit/api/accounts';
import { startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';

/** Deleting a plan archives it; the console finds it again, and staff restore it to sale. */
describe('archived plans in the console, and restoring them', () => {
  let subject: TestApp;
  let staff: Record<string, string>;
  beforeAll(async () => {
    subject = await startTestApp({ STRIPE_SECRET_KEY: '', AUTH_RATE_LIMIT_PER_MINUTE: '1000' });
    const account = await registerAccount(subject.app, 'staff', randomUUID().slice(0, 8), true);
    staff = { Authorization: `Bearer ${account.tokens.access}` };
  });
  afterAll(() => subject.close());

  const http = () => request(subject.app.getHttpServer());
  const plans = '/api/v1/admin-panel/plans';
  const onSale = async () => ((await http().get('/api/v1/subscriptions/plans/').expect(200)).body as Plan[]).map((p) => p.slug);
  const listed = async (filter: object) =>
    (
      (
        await http()
          .get(plans)
          .query({ filter: JSON.stringify(filter) })
          .set(staff)
          .expect(200)
      ).body as AdminPlan[]
    ).map((p) => p.id);

  async function archivedPlan(name: string): Promise<string> {
    const created = await http().post(plans).set(staff).send({ name, price: 12.5, max_networks: 2, tier: 3 }).expect(201);
    const id = (created.body as AdminPlan).id;
    await http().delete(`${plans}/${id}`).set(staff).expect(200, { id });
    return id;
  }

  it('answers an archived plan marked archived, lists it on request, and refuses to edit or re-create it (409)', async () => {
    const id = await archivedPlan('Seasonal');
    const one = await http().get(`${plans}/${id}`).set(staff).expect(200);
    expect(one.body).toMatchObject({ id, archived: true, is_active: false, price: '12.50', max_networks: 2 });

    expect(await listed({})).not.toContain(id);
    expect(await listed({ archived: true })).toEqual([id]);
    expect(await listed({ archived: true, q: 'seas' })).toEqual([id]);
    expect((await http().get(`${plans}/pro`).set(staff).expect(200)).body.archived).toBe(false);

    const edit = await http().put(`${plans}/${id}`).set(staff).send({ price: 20 }).expect(409);
    expect(edit.body.message).toBe('This plan is archived. Restore the plan before editing it.');
    await http().put(`${plans}/${id}`).set(staff).send({ is_active: true }).expect(409);
    const again = await http().post(plans).set(staff).send({ name: 'Seasonal', price: 30 }).expect(409);
    expect(again.body.errors.slug).toEqual(['An archived plan has this slug. Restore it instead of creating it again.']);
    expect(await onSale()).not.toContain(id);
  });

  it('restores it to sale with its terms, where customers can buy it again', async () => {
    const id = await archivedPlan('Comeback');
    const restored = await http().post(`${plans}/${id}/restore/`).set(staff).expect(200);
    expect(restored.body).toMatchObject({ id, archived: false, is_active: true, price: '12.50', max_networks: 2 });
    expect(await onSale()).toContain(id);
    expect(await listed({})).toContain(id);
    expect(await listed({ archived: true })).not.toContain(id);

    const customer = await registerCustomer(subject.app);
    const checkout = await customer.post('/subscriptions/create/', { plan_id: id, payment_method: 'stripe' }).expect(201);
    const sessionId = String(checkout.body.payment_url).split('/').pop()!;
    await customer.post(`/subscriptions/simulated-checkout/${sessionId}/complete/`).expect(200);
    expect((await customer.get('/plan/').expect(200)).body).toMatchObject({ plan: id, permissions: { max_networks: 2 } });

    // Editable again, and restoring twice changes nothing.
    await http().put(`${plans}/${id}`).set(staff).send({ price: 15 }).expect(200);
    const twice = await http().post(`${plans}/${id}/restore/`).set(staff).expect(200);
    expect(twice.body).toMatchObject({ price: '15.00', archived: false });
    const { rows } = await subject.db.pool.query(
      "SELECT count(*)::int AS n FROM es_events WHERE stream_id = $1 AND type = 'PlanRestored'",
      [`plan-${id}`],
    );
    expect(rows[0].n).toBe(1);
  });

  it('restores only plans that exist, and only for staff', async () => {
    await http().post(`${plans}/no-such-plan/restore/`).set(staff).expect(404);
    const customer = await registerCustomer(subject.app);
    await http()
      .post(`${plans}/pro/restore/`)
      .set({ Authorization: `Bearer ${customer.token}` })
      .expect(403);
    await http().post(`${plans}/pro/restore/`).expect(401);
  });
});
