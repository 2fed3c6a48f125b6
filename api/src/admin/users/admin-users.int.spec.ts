import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import request from 'supertest';
import type { AuthResponse } from '@meshwork/contracts';
import { Register } from '../../identity/application/register.handler';
import { mailTo } from '@meshwork/testkit/mail';
import { startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';

const PASSWORD = 'Str0ngPassword';

describe('console users resource (react-admin dialect)', () => {
  let subject: TestApp;
  let staff: AuthResponse;
  let customer: AuthResponse;
  const tag = randomUUID().slice(0, 6);

  beforeAll(async () => {
    subject = await startTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '1000' });
    const bus = subject.app.get(CommandBus);
    staff = await bus.execute(new Register(`staff-${tag}@example.com`, `staff_${tag}`, PASSWORD, true, new Date()));
    customer = await bus.execute(new Register(`zoe-${tag}@example.com`, `zoe_${tag}`, PASSWORD, false, new Date()));
    for (const name of ['amy', 'bob', 'cat'])
      await bus.execute(new Register(`${name}-${tag}@example.com`, `${name}_${tag}`, PASSWORD, false, new Date()));
  });
  afterAll(() => subject.close());

  const http = () => request(subject.app.getHttpServer());
  const asStaff = (path: string) => http().get(path).set('Authorization', `Bearer ${staff.tokens.access}`);

  it('lists with sort, range and Content-Range', async () => {
    const response = await asStaff(
      `/api/v1/admin-panel/users?sort=${encodeURIComponent('["username","ASC"]')}&range=${encodeURIComponent('[0,1]')}`,
    ).expect(200);
    expect(response.headers['content-range']).toBe('users 0-1/5');
    expect(response.headers['access-control-expose-headers']).toBe('Content-Range');
    expect(response.body.map((u: { username: string }) => u.username)).toEqual([`amy_${tag}`, `bob_${tag}`]);
    expect(Object.keys(response.body[0]).sort()).toEqual(
      [
        'created_at',
        'email',
        'first_name',
        'id',
        'is_active',
        'is_auditor',
        'is_staff',
        'last_login',
        'last_name',
        'max_clients',
        'subscription_plan',
        'username',
      ].sort(),
    );
  });

  it('searches username, email and full name, ignoring case', async () => {
    await http()
      .patch('/api/v1/profile/')
      .set('Authorization', `Bearer ${customer.tokens.access}`)
      .send({ first_name: 'Zoë', last_name: 'Quinn' })
      .expect(200);
    for (const q of ['ZOE_', 'zoe-', 'quinn', 'zoë qu']) {
      const response = await asStaff(`/api/v1/admin-panel/users?filter=${encodeURIComponent(JSON.stringify({ q }))}`).expect(200);
      expect(response.body.map((u: { id: string }) => u.id)).toEqual([customer.user.id]);
    }
    const none = await asStaff(`/api/v1/admin-panel/users?filter=${encodeURIComponent('{"q":"%"}')}`).expect(200);
    expect(none.headers['content-range']).toBe('users */0');
  });

  it('deactivates as a command recorded with the staff member, ending the user’s sessions', async () => {
    const id = customer.user.id;
    const record = (await asStaff(`/api/v1/admin-panel/users/${id}`).expect(200)).body;
    const response = await http()
      .put(`/api/v1/admin-panel/users/${id}`)
      .set('Authorization', `Bearer ${staff.tokens.access}`)
      .send({ ...record, is_active: false })
      .expect(200);
    expect(response.body.is_active).toBe(false);
    await http().get('/api/v1/profile/').set('Authorization', `Bearer ${customer.tokens.access}`).expect(401);
    await http()
      .post('/api/v1/login/')
      .send({ email: `zoe-${tag}@example.com`, password: PASSWORD })
      .expect(403);

    const { rows } = await subject.db.pool.query("SELECT metadata FROM es_events WHERE stream_id = $1 AND type = 'UserDeactivated'", [
      `user-${id}`,
    ]);
    expect(rows[0].metadata.actor).toMatchObject({ userId: staff.user.id, isStaff: true });

    // Staff may still correct a deactivated user's names; the user cannot (their session ended above).
    await http()
      .put(`/api/v1/admin-panel/users/${id}`)
      .set('Authorization', `Bearer ${staff.tokens.access}`)
      .send({ first_name: 'Zoë' })
      .expect(200, /"first_name":"Zoë"/);

    await http()
      .put(`/api/v1/admin-panel/users/${id}`)
      .set('Authorization', `Bearer ${staff.tokens.access}`)
      .send({ is_active: true })
      .expect(200, /"is_active":true/);
    await http()
      .post('/api/v1/login/')
      .send({ email: `zoe-${tag}@example.com`, password: PASSWORD })
      .expect(200);
  });

  it('deletes a user', async () => {
    const list = await asStaff(`/api/v1/admin-panel/users?filter=${encodeURIComponent('{"q":"cat_"}')}`).expect(200);
    const id = list.body[0].id;
    await http().delete(`/api/v1/admin-panel/users/${id}`).set('Authorization', `Bearer ${staff.tokens.access}`).expect(200, { id });
    await asStaff(`/api/v1/admin-panel/users/${id}`).expect(404);
    await http().delete(`/api/v1/admin-panel/users/${id}`).set('Authorization', `Bearer ${staff.tokens.access}`).expect(404);
  });

  it('does not let staff deactivate or delete themselves', async () => {
    const self = `/api/v1/admin-panel/users/${staff.user.id}`;
    const deactivate = await http().put(self).set('Authorization', `Bearer ${staff.tokens.access}`).send({ is_active: false }).expect(400);
    expect(deactivate.body.message).toBe('You cannot deactivate your own account.');
    await http().delete(self).set('Authorization', `Bearer ${staff.tokens.access}`).expect(400);
    await asStaff(self).expect(200, /"is_active":true/);
  });

  it('refuses non-staff (403) and strangers (401), and bad list parameters (400)', async () => {
    const refused = await http().get('/api/v1/admin-panel/users').set('Authorization', `Bearer ${customer.tokens.access}`);
    expect([401, 403]).toContain(refused.status); // 401 if the deactivation test ended this session
    const fresh = await http()
      .post('/api/v1/login/')
      .send({ email: `amy-${tag}@example.com`, password: PASSWORD })
      .expect(200);
    const forbidden = await http().get('/api/v1/admin-panel/users').set('Authorization', `Bearer ${fresh.body.tokens.access}`).expect(403);
    expect(forbidden.body).toEqual({ message: 'Access denied. Admin privileges required.' });
    await http().get('/api/v1/admin-panel/users').expect(401);
    await asStaff('/api/v1/admin-panel/users?sort=["password","ASC"]').expect(400);
    await asStaff('/api/v1/admin-panel/users?range=[5,1]').expect(400);
    await asStaff('/api/v1/admin-panel/users?filter=notjson').expect(400);
    await http()
      .put('/api/v1/admin-panel/users/not-a-uuid')
      .set('Authorization', `Bearer ${staff.tokens.access}`)
      .send({ is_active: false })
      .expect(400);
  });

  describe('users made by staff', () => {
    const send = (method: 'post' | 'put', path: string, body: object) =>
      http()[method](`/api/v1/admin-panel/users${path}`).set('Authorization', `Bearer ${staff.tokens.access}`).send(body);

    it('creates an auditor who is mailed a link to choose a password, recorded with the staff member', async () => {
      const email = `new-${tag}@example.com`;
      const created = await send('post', '/', {
        email,
        username: `new_${tag}`,
        first_name: 'Nia',
        last_name: 'Obi',
        is_auditor: true,
      }).expect(201);
      expect(created.body).toMatchObject({
        email,
        username: `new_${tag}`,
        first_name: 'Nia',
        last_name: 'Obi',
        is_staff: false,
        is_auditor: true,
      });
      await asStaff(`/api/v1/admin-panel/users/${created.body.id}`).expect(200, new RegExp(`"is_auditor":true`));

      const mail = await mailTo(email);
      expect(mail.subject).toBe('Your Meshwork account is ready');
      const token = new URL(mail.links.find((l) => l.includes('/reset-password?token='))!).searchParams.get('token')!;
      await http()
        .post('/api/v1/password-reset-confirm/')
        .send({ token, password: 'Ch0senPassword', password_confirm: 'Ch0senPassword' })
        .expect(200);
      const signedIn = await http().post('/api/v1/login/').send({ email, password: 'Ch0senPassword' }).expect(200);
      expect(signedIn.body.user).toMatchObject({ is_staff: false, is_auditor: true });

      const { rows } = await subject.db.pool.query('SELECT type, metadata FROM es_events WHERE stream_id = $1 ORDER BY stream_version', [
        `user-${created.body.id}`,
      ]);
      expect(rows.slice(0, 3).map((r: { type: string }) => r.type)).toEqual(['UserRegistered', 'ProfileUpdated', 'PasswordResetRequested']);
      for (const row of rows.slice(0, 3)) expect(row.metadata.actor).toMatchObject({ userId: staff.user.id, isStaff: true });
    });

    it('refuses a taken email or username, both roles at once, and bad fields, storing nothing', async () => {
      const taken = await send('post', '/', { email: `amy-${tag}@example.com`, username: `fresh_${tag}` }).expect(400);
      expect(taken.body.errors).toEqual({ email: ['A user with this email already exists.'] });
      const both = await send('post', '/', {
        email: `both-${tag}@example.com`,
        username: `both_${tag}`,
        is_staff: true,
        is_auditor: true,
      }).expect(400);
      expect(both.body.errors).toEqual({ is_auditor: ['A user is either staff or an auditor, not both.'] });
      const bad = await send('post', '/', { email: 'nope', username: 'x', is_staff: 'yes', role: 'admin' }).expect(400);
      expect(Object.keys(bad.body.errors).sort()).toEqual(['email', 'is_staff', 'username']);
      expect(bad.body.non_field_errors.join(' ')).toMatch(/role/);
      const listed = await asStaff(`/api/v1/admin-panel/users?filter=${encodeURIComponent(JSON.stringify({ q: `both_${tag}` }))}`).expect(
        200,
      );
      expect(listed.body).toEqual([]);
    });

    it("edits a user's names and roles, one event each, and not the caller's own role", async () => {
      const user = (
        await asStaff(`/api/v1/admin-panel/users?filter=${encodeURIComponent(JSON.stringify({ q: `bob_${tag}` }))}`).expect(200)
      ).body[0];
      const edited = await send('put', `/${user.id}`, { ...user, first_name: 'Bob', last_name: 'Ray', is_staff: true }).expect(200);
      expect(edited.body).toMatchObject({ first_name: 'Bob', last_name: 'Ray', is_staff: true, is_auditor: false });
      const again = await send('put', `/${user.id}`, edited.body).expect(200);
      expect(again.body).toEqual(edited.body);
      const { rows } = await subject.db.pool.query(
        "SELECT type FROM es_events WHERE stream_id = $1 AND type <> 'UserSignedIn' AND stream_version > 1 ORDER BY stream_version",
        [`user-${user.id}`],
      );
      expect(rows.map((r: { type: string }) => r.type)).toEqual(['ProfileUpdated', 'UserRolesChanged']);
      const both = await send('put', `/${user.id}`, { is_auditor: true }).expect(400);
      expect(both.body.message).toBe('A user is either staff or an auditor, not both.');
      const self = await send('put', `/${staff.user.id}`, { is_staff: false }).expect(400);
      expect(self.body.message).toBe('You cannot change your own staff or auditor role.');
      await send('put', `/${user.id}`, { is_staff: false }).expect(200, /"is_staff":false/);
    });
  });
});
