import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { registerCustomer, type TestCustomer } from '../../../../testkit/src/api/accounts';

/** A customer on Enterprise through the simulated checkout (the app runs with STRIPE_SECRET_KEY ''). */
export async function enterpriseCustomer(app: INestApplication) {
  const customer = await registerCustomer(app);
  const created = await customer
    .post('/subscriptions/create/', { plan_id: 'enterprise', payment_method: 'stripe', billing_cycle: 'monthly' })
    .expect(201);
  const sessionId = String(created.body.payment_url).split('/').pop();
  await customer.post(`/subscriptions/simulated-checkout/${sessionId}/complete/`).expect(200);
  await customer.post('/subscriptions/verify/', { session_id: sessionId }).expect(200);
  return withWebhookCalls(app, customer);
}

/** The customer's calls, with PATCH and DELETE beside GET and POST. */
export function withWebhookCalls(app: INestApplication, customer: TestCustomer) {
  const bearer = { Authorization: `Bearer ${customer.token}` };
  return {
    ...customer,
    patch: (path: string, payload: object) => request(app.getHttpServer()).patch(`/api/v1${path}`).set(bearer).send(payload),
    delete: (path: string) => request(app.getHttpServer()).delete(`/api/v1${path}`).set(bearer),
  };
}
