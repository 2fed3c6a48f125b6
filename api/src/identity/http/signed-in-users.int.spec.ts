import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { CommandBus } from '@nestjs/cqrs';
import { Register } from '../application/register.handler';
import { eventually } from '@meshwork/testkit/eventually';
import { startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';

const PASSWORD = 'Str0ngPassword';

/**
 * Authenticated requests are answered from an in-memory cache of signed-in users. These
 * tests run two api instances on one database and check the cache never outlives a change
 * made on either.
 */
describe('signed-in users cached in memory, invalidated across instances', () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await startTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '1000' });
    second = await startTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '1000' }, first);
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  const on = (instance: TestApp) => request(instance.app.getHttpServer());
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

  async function register(instance: TestApp) {
    const name = randomUUID().slice(0, 8);
    const body = { email: `${name}@example.com`, username: `user_${name}`, password: PASSWORD, password_confirm: PASSWORD };
    const response = await on(instance).post('/api/v1/register/').send(body).expect(201);
    return response.body as { tokens: { access: string; refresh: string }; user: { id: string } };
  }

  it('a sign-out on one instance ends the session on the other', async () => {
    const { tokens } = await register(first);
    await on(first).get('/api/v1/profile/').set(bearer(tokens.access)).expect(200);
    await on(first).get('/api/v1/profile/').set(bearer(tokens.access)).expect(200); // now cached
    await on(second).post('/api/v1/logout/').send({ refresh_token: tokens.refresh }).expect(200);
    await eventually(
      async () => (await on(first).get('/api/v1/profile/').set(bearer(tokens.access))).status === 401,
      'the sign-out on the first instance',
    );
  });

  it('a password change on one instance ends the other sessions on both', async () => {
    const { tokens: kept } = await register(first);
    const profile = await on(first).get('/api/v1/profile/').set(bearer(kept.access)).expect(200);
    const other = await on(second).post('/api/v1/login/').send({ email: profile.body.email, password: PASSWORD }).expect(200);
    await on(first).get('/api/v1/profile/').set(bearer(other.body.tokens.access)).expect(200);
    await on(second).get('/api/v1/profile/').set(bearer(other.body.tokens.access)).expect(200);
    await on(second).get('/api/v1/profile/').set(bearer(other.body.tokens.access)).expect(200); // now cached

    await on(first)
      .post('/api/v1/change-password/')
      .set(bearer(kept.access))
      .send({ old_password: PASSWORD, new_password: 'N3wPassword!', new_password_confirm: 'N3wPassword!' })
      .expect(200);
    // At once where the change was made, within moments on the other instance.
    await on(first).get('/api/v1/profile/').set(bearer(other.body.tokens.access)).expect(401);
    await eventually(
      async () => (await on(second).get('/api/v1/profile/').set(bearer(other.body.tokens.access))).status === 401,
      'the password change on the second instance',
    );
    await on(first).get('/api/v1/profile/').set(bearer(kept.access)).expect(200);
  });

  it('a profile change is read back at once where it was made and soon on the other instance', async () => {
    const { tokens } = await register(first);
    await on(second).get('/api/v1/profile/').set(bearer(tokens.access)).expect(200);
    await on(second).get('/api/v1/profile/').set(bearer(tokens.access)).expect(200); // now cached
    for (let i = 0; i < 10; i++) {
      await on(first).get('/api/v1/profile/').set(bearer(tokens.access)).expect(200);
      await on(first)
        .patch('/api/v1/profile/')
        .set(bearer(tokens.access))
        .send({ first_name: `Ada${i}` })
        .expect(200);
      const read = await on(first).get('/api/v1/profile/').set(bearer(tokens.access)).expect(200);
      expect(read.body.first_name).toBe(`Ada${i}`);
    }
    await eventually(
      async () => (await on(second).get('/api/v1/profile/').set(bearer(tokens.access))).body.first_name === 'Ada9',
      'the last profile change on the second instance',
    );
  });

  it('deactivation by staff on one instance locks the user out of the other', async () => {
    const tag = randomUUID().slice(0, 8);
    const staff = await first.app
      .get(CommandBus)
      .execute(new Register(`staff-${tag}@example.com`, `staff_${tag}`, PASSWORD, true, new Date()));
    const { tokens, user } = await register(first);
    await on(second).get('/api/v1/profile/').set(bearer(tokens.access)).expect(200);
    await on(second).get('/api/v1/profile/').set(bearer(tokens.access)).expect(200);
    await on(first).put(`/api/v1/admin-panel/users/${user.id}`).set(bearer(staff.tokens.access)).send({ is_active: false }).expect(200);
    await eventually(
      async () => (await on(second).get('/api/v1/profile/').set(bearer(tokens.access))).status === 401,
      'the deactivation on the second instance',
    );
  });
});
