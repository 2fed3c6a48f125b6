import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';

export const TEST_PASSWORD = 'Str0ngPassword';

/** A freshly registered customer, with calls that carry their bearer token. */
export async function registerCustomer(app: INestApplication) {
  const http = () => request(app.getHttpServer());
  const name = randomUUID().slice(0, 8);
  const body = { email: `${name}@example.com`, username: `user_${name}`, password: TEST_PASSWORD, password_confirm: TEST_PASSWORD };
  const response = await http().post('/api/v1/register/').send(body).expect(201);
  const token = response.body.tokens.access as string;
  const bearer = { Authorization: `Bearer ${token}` };
  return {
    userId: response.body.user.id as string,
    email: body.email,
    token,
    get: (path: string) => http().get(`/api/v1${path}`).set(bearer),
    post: (path: string, payload: object = {}) => http().post(`/api/v1${path}`).set(bearer).send(payload),
  };
}

export type TestCustomer = Awaited<ReturnType<typeof registerCustomer>>;
