import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { AdminPayment } from '@meshwork/contracts';
import { registerAccount } from '@meshwork/testkit/api/accounts';
import { startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';

/** The console's payments list (filter, sort, range as react-admin sends them) and one payment, with the payer's names. */
describe('the console’s payments, with their payers and plans', () => {
  let subject: TestApp;
  let staffToken: string;
  const tag = randomUUID().slice(0, 6);
  const ids: Record<string, string> = {};

  const http = () => request(subject.app.getHttpServer());
  const asStaff = (path: string) => http().get(`/api/v1/admin-panel/payments${path}`).set('Authorization', `Bearer ${staffToken}`);
  const list = (sort: [string, 'ASC' | 'DESC'], range = [0, 9]) =>
    asStaff(
      `?${new URLSearchParams({ filter: JSON.stringify({ q: tag }), sort: JSON.stringify(sort), range: JSON.stringify(range) })}`,
    ).expect(200);

  beforeAll(async () => {
    subject = await startTestApp({ STRIPE_SECRET_KEY: '', AUTH_RATE_LIMIT_PER_MINUTE: '1000' });
    staffToken = (await registerAccount(subject.app, 'staff', tag, true)).tokens.access;
    for (const [name, plan] of [
      ['cat', 'pro'],
      ['amy', 'enterprise'],
      ['bob', 'pro'],
    ] as const) {
      const account = await registerAccount(subject.app, name, tag);
      ids[name] = account.user.id;
      const bearer = { Authorization: `Bearer ${account.tokens.access}` };
      if (name === 'amy') await http().patch('/api/v1/profile/').set(bearer).send({ first_name: 'Amy', last_name: 'Adams' }).expect(200);
      const created = await http()
        .post('/api/v1/subscriptions/create/')
        .set(bearer)
        .send({ plan_id: plan, payment_method: 'stripe', billing_cycle: 'monthly' })
        .expect(201);
      const sessionId = String(created.body.payment_url).split('/').pop();
      await http().post(`/api/v1/subscriptions/simulated-checkout/${sessionId}/complete/`).set(bearer).expect(200);
    }
  });
  afterAll(() => subject.close());

  const emails = (body: AdminPayment[]) => body.map((p) => p.userEmail.split('-')[0]);

  it('sorts by the payer’s email, the plan’s name, the amount or the date, either way', async () => {
    expect(emails((await list(['userEmail', 'ASC'])).body)).toEqual(['amy', 'bob', 'cat']);
    expect(emails((await list(['userEmail', 'DESC'])).body)).toEqual(['cat', 'bob', 'amy']);
    expect(emails((await list(['planName', 'ASC'])).body)).toEqual(['amy', 'cat', 'bob']); // Enterprise, then Pro by payment order
    expect(emails((await list(['amount', 'DESC'])).body)).toEqual(['amy', 'bob', 'cat']);
    expect(emails((await list(['createdDate', 'DESC'])).body)).toEqual(['bob', 'amy', 'cat']);
  });

  it('pages with Content-Range counting every match', async () => {
    const page = await list(['createdDate', 'ASC'], [1, 2]);
    expect(page.headers['content-range']).toBe('payments 1-2/3');
    expect(emails(page.body)).toEqual(['amy', 'bob']);
  });

  it('names the payer (full name, else username) and the plan, in the list and alone', async () => {
    const { body } = await list(['userEmail', 'ASC']);
    expect(body.map((p: AdminPayment) => [p.userId, p.userName, p.planName, p.amount])).toEqual([
      [ids.amy, 'Amy Adams', 'Enterprise', 99],
      [ids.bob, `bob_${tag}`, 'Pro', 29],
      [ids.cat, `cat_${tag}`, 'Pro', 29],
    ]);
    const one = await asStaff(`/${body[0].id}`).expect(200);
    expect(one.body).toEqual(body[0]);
    expect(one.body).toMatchObject({ userEmail: `amy-${tag}@example.com`, status: 'completed', processedDate: expect.any(String) });
    await asStaff(`/${randomUUID()}`).expect(404);
  });
});
