import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import request from 'supertest';
import type { AuthResponse } from '@meshwork/contracts';
import { ChangeUserRoles } from '../../../api/src/identity';
import { Register } from '../../../api/src/identity/application/register.handler';
import { subscribeOverHttp } from './http-accounts.cjs';

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

/**
 * An account made through the command bus (no HTTP, so no rate limit): email
 * `<name>-<tag>@example.com`, username `<name>_<tag>`, password TEST_PASSWORD.
 */
export function registerAccount(app: INestApplication, name: string, tag: string, isStaff = false): Promise<AuthResponse> {
  return app.get(CommandBus).execute(new Register(`${name}-${tag}@example.com`, `${name}_${tag}`, TEST_PASSWORD, isStaff, new Date()));
}

/** An account made as registerAccount does, then given the auditor role (read-only staff). */
export async function registerAuditor(app: INestApplication, name: string, tag: string): Promise<AuthResponse> {
  const account = await registerAccount(app, name, tag);
  await app.get(CommandBus).execute(new ChangeUserRoles(account.user.id, { isStaff: false, isAuditor: true }, new Date()));
  return account;
}

/**
 * Subscribes a user to `planId` through the simulated checkout, as the site's plan dialog and
 * checkout page do, over HTTP to the listening app at `base`; fails unless the plan is then `planId`.
 */
export function subscribeToPlan(base: string, accessToken: string, planId: string): Promise<void> {
  return subscribeOverHttp(`${base}/api/v1`, accessToken, planId);
}

/** subscribeToPlan to Pro, the plan most tests need beyond the free one. */
export function subscribeToPro(base: string, accessToken: string): Promise<void> {
  return subscribeToPlan(base, accessToken, 'pro');
}
