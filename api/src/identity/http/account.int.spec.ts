import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { IdentityContext } from '../application/identity-context';
import { mailTo } from '@meshwork/testkit/mail';
import { startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';

const PASSWORD = 'Str0ngPassword';

describe('account calls against real PostgreSQL and SMTP', () => {
  let subject: TestApp;
  beforeAll(async () => {
    subject = await startTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '1000' });
  });
  afterAll(() => subject.close());

  const http = () => request(subject.app.getHttpServer());
  const unique = () => randomUUID().slice(0, 8);

  async function register(overrides: Record<string, string> = {}) {
    const name = unique();
    const body = { email: `${name}@example.com`, username: `user_${name}`, password: PASSWORD, password_confirm: PASSWORD, ...overrides };
    const response = await http().post('/api/v1/register/').send(body).expect(201);
    return { ...body, ...(response.body as { tokens: { access: string; refresh: string }; user: { id: string } }) };
  }

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

  describe('register', () => {
    it('creates the account and answers with both tokens and every field of the user', async () => {
      const account = await register();
      expect(account.tokens).toEqual({ access: expect.stringMatching(/^ey/), refresh: expect.any(String) });
      expect(account.user).toEqual({
        id: expect.any(String),
        username: account.username,
        email: account.email,
        first_name: '',
        last_name: '',
        subscription_plan: 'free',
        max_clients: 2,
        allowed_models: [], // the catalog opens no model to the free plan yet
        created_at: expect.stringMatching(/^\d{4}-/),
        is_staff: false,
        is_auditor: false,
      });
    });

    it('answers every validation rule with its message, per field', async () => {
      const response = await http()
        .post('/api/v1/register/')
        .send({ email: 'nope', username: 'ab', password: 'short', password_confirm: 'other' })
        .expect(400);
      expect(response.body.errors).toEqual({
        email: ['Invalid email address'],
        username: ['Username must be at least 3 characters'],
        password: ['Password must be at least 8 characters', 'Password must contain uppercase, lowercase and number'],
        password_confirm: ['Passwords do not match'],
      });
      const empty = await http().post('/api/v1/register/').send({}).expect(400);
      expect(empty.body.errors).toEqual({
        email: ['Email is required'],
        username: ['Username is required'],
        password: ['Password is required'],
        password_confirm: ['Please confirm your password'],
      });
      const weak = await http()
        .post('/api/v1/register/')
        .send({ email: 'a@b.co', username: 'abc', password: 'alllowercase1', password_confirm: 'alllowercase1' })
        .expect(400);
      expect(weak.body.errors.password).toEqual(['Password must contain uppercase, lowercase and number']);
    });

    it('keeps email and username unique, ignoring case', async () => {
      const first = await register();
      const again = await http()
        .post('/api/v1/register/')
        .send({ email: first.email.toUpperCase(), username: `other_${unique()}`, password: PASSWORD, password_confirm: PASSWORD })
        .expect(400);
      expect(again.body.errors).toEqual({ email: ['A user with this email already exists.'] });
      const sameName = await http()
        .post('/api/v1/register/')
        .send({ email: `${unique()}@example.com`, username: first.username.toUpperCase(), password: PASSWORD, password_confirm: PASSWORD })
        .expect(400);
      expect(sameName.body.errors).toEqual({ username: ['A user with that username already exists.'] });
    });

    it('gives a contested email to exactly one of many racing registrations', async () => {
      const email = `race-${unique()}@example.com`;
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          http()
            .post('/api/v1/register/')
            .send({ email, username: `racer${i}_${unique()}`, password: PASSWORD, password_confirm: PASSWORD }),
        ),
      );
      expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 400)).toHaveLength(5);
    });
  });

  describe('login', () => {
    it('signs in with the fingerprint defaulting to web-browser', async () => {
      const account = await register();
      const response = await http().post('/api/v1/login/').send({ email: account.email.toUpperCase(), password: PASSWORD }).expect(200);
      expect(response.body.user.id).toBe(account.user.id);
      const { rows } = await subject.db.pool.query(
        "SELECT data FROM es_events WHERE stream_id = $1 AND type = 'UserSignedIn' ORDER BY position",
        [`user-${account.user.id}`],
      );
      const decoded = await subject.app.get(IdentityContext).vault.decrypt(account.user.id, rows[1].data.deviceFingerprint);
      expect(decoded).toBe('web-browser');
    });

    it('answers a wrong password and an unknown email the same way', async () => {
      const account = await register();
      const wrong = await http().post('/api/v1/login/').send({ email: account.email, password: 'WrongPass1' }).expect(400);
      const unknown = await http()
        .post('/api/v1/login/')
        .send({ email: `nobody-${unique()}@example.com`, password: 'WrongPass1' })
        .expect(400);
      expect(wrong.body).toEqual({ message: 'Invalid email or password.' });
      expect(unknown.body).toEqual(wrong.body);
    });

    it('checks the login form rules', async () => {
      const response = await http().post('/api/v1/login/').send({ email: '', password: '12345' }).expect(400);
      expect(response.body.errors).toEqual({ email: ['Email is required'], password: ['Password must be at least 6 characters'] });
    });

    it('refuses a deactivated account, and lets it back in once reactivated', async () => {
      const account = await register();
      const identity = subject.app.get(IdentityContext);
      await identity.users.execute(account.user.id, { type: 'Deactivate', at: new Date() });
      await identity.sessions.revokeAll(account.user.id, 'deactivated', new Date());
      const refused = await http().post('/api/v1/login/').send({ email: account.email, password: PASSWORD }).expect(403);
      expect(refused.body.message).toMatch(/deactivated/);
      await http().post('/api/v1/refresh/').send({ refresh: account.tokens.refresh }).expect(401);
      await identity.users.execute(account.user.id, { type: 'Reactivate', at: new Date() });
      await http().post('/api/v1/login/').send({ email: account.email, password: PASSWORD }).expect(200);
    });
  });

  describe('tokens', () => {
    it('rotates the refresh token, and a reused one revokes the whole family', async () => {
      const account = await register();
      const first = await http().post('/api/v1/refresh/').send({ refresh: account.tokens.refresh }).expect(200);
      expect(first.body).toEqual({ access: expect.any(String), refresh: expect.any(String) });
      expect(first.body.refresh).not.toBe(account.tokens.refresh);
      await http().get('/api/v1/profile/').set(bearer(first.body.access)).expect(200);

      // The spent token again: theft. Everything of that session stops working.
      await http().post('/api/v1/refresh/').send({ refresh: account.tokens.refresh }).expect(401);
      await http().post('/api/v1/refresh/').send({ refresh: first.body.refresh }).expect(401);
      await http().get('/api/v1/profile/').set(bearer(first.body.access)).expect(401);
      const { rows } = await subject.db.pool.query("SELECT data FROM es_events WHERE stream_id = $1 AND type = 'UserSignedOut'", [
        `user-${account.user.id}`,
      ]);
      expect(rows.map((r) => r.data.reason)).toEqual(['refresh-token-reuse']);
    });

    it('refuses missing, forged and garbage tokens with the spec message', async () => {
      const account = await register();
      const forged = account.tokens.access.slice(0, -3) + 'abc';
      for (const headers of [{}, bearer(forged), bearer('garbage'), { Authorization: 'Basic x' }]) {
        const response = await http().get('/api/v1/profile/').set(headers).expect(401);
        expect(response.body).toEqual({ message: 'Authentication required. Please log in.' });
      }
      await http().post('/api/v1/refresh/').send({ refresh: 'not-a-token' }).expect(401);
    });

    it('logs out: the refresh token and the access token stop working', async () => {
      const account = await register();
      await http()
        .post('/api/v1/logout/')
        .send({ refresh_token: account.tokens.refresh })
        .expect(200, { message: 'Logged out successfully' });
      await http().post('/api/v1/refresh/').send({ refresh: account.tokens.refresh }).expect(401);
      await http().get('/api/v1/profile/').set(bearer(account.tokens.access)).expect(401);
    });
  });

  describe('profile', () => {
    it('reads and updates the profile, keeping usernames unique', async () => {
      const account = await register();
      const other = await register();
      const updated = await http()
        .patch('/api/v1/profile/')
        .set(bearer(account.tokens.access))
        .send({ first_name: 'Ann', last_name: 'Lee', username: `ann_${unique()}` })
        .expect(200);
      expect(updated.body).toMatchObject({ first_name: 'Ann', last_name: 'Lee' });
      const read = await http().get('/api/v1/profile/').set(bearer(account.tokens.access)).expect(200);
      expect(read.body).toEqual(updated.body);

      const taken = await http()
        .patch('/api/v1/profile/')
        .set(bearer(account.tokens.access))
        .send({ username: other.username })
        .expect(400);
      expect(taken.body.errors).toEqual({ username: ['A user with that username already exists.'] });
      await http()
        .patch('/api/v1/profile/')
        .set(bearer(account.tokens.access))
        .send({ email: 'bad' })
        .expect(400, /Invalid email address/);
      await http().patch('/api/v1/profile/').set(bearer(account.tokens.access)).send({ is_staff: true }).expect(400);
    });

    it('frees the old username when it changes', async () => {
      const account = await register();
      await http()
        .patch('/api/v1/profile/')
        .set(bearer(account.tokens.access))
        .send({ username: `renamed_${unique()}` })
        .expect(200);
      await register({ username: account.username });
    });
  });

  describe('passwords', () => {
    it('changes the password after checking the old one, signing out other sessions', async () => {
      const account = await register();
      const elsewhere = await http().post('/api/v1/login/').send({ email: account.email, password: PASSWORD }).expect(200);
      const wrong = await http()
        .post('/api/v1/change-password/')
        .set(bearer(account.tokens.access))
        .send({ old_password: 'Nope12345', new_password: 'N3wPassword' })
        .expect(400);
      expect(wrong.body.errors).toEqual({ old_password: ['Current password is incorrect.'] });
      const weak = await http()
        .post('/api/v1/change-password/')
        .set(bearer(account.tokens.access))
        .send({ old_password: PASSWORD, new_password: 'weak' })
        .expect(400);
      expect(weak.body.errors.new_password[0]).toBe('Password must be at least 8 characters');

      await http()
        .post('/api/v1/change-password/')
        .set(bearer(account.tokens.access))
        .send({ old_password: PASSWORD, new_password: 'N3wPassword' })
        .expect(200);
      await http().get('/api/v1/profile/').set(bearer(account.tokens.access)).expect(200);
      await http().get('/api/v1/profile/').set(bearer(elsewhere.body.tokens.access)).expect(401);
      await http().post('/api/v1/login/').send({ email: account.email, password: PASSWORD }).expect(400);
      await http().post('/api/v1/login/').send({ email: account.email, password: 'N3wPassword' }).expect(200);
    });

    it.each([
      ['/api/v1/password-reset/', '/api/v1/password-reset-confirm/'],
      ['/api/v1/auth/forgot-password/', '/api/v1/auth/reset-password/'],
    ])('resets through the emailed link (%s), once, signing out every session', async (requestPath, confirmPath) => {
      const account = await register();
      const answer = await http().post(requestPath).send({ email: account.email }).expect(200);
      const unknown = await http()
        .post(requestPath)
        .send({ email: `nobody-${unique()}@example.com` })
        .expect(200);
      expect(unknown.body).toEqual(answer.body);

      const mail = await mailTo(account.email);
      expect(mail.subject).toBe('Reset your Meshwork password');
      const link = mail.links.find((l) => l.includes('/reset-password?token='))!;
      const token = new URL(link).searchParams.get('token')!;

      const mismatch = await http()
        .post(confirmPath)
        .send({ token, password: 'R3setPassword', password_confirm: 'Different1' })
        .expect(400);
      expect(mismatch.body.errors).toEqual({ password_confirm: ['Passwords do not match'] });
      await http().post(confirmPath).send({ token, password: 'R3setPassword', password_confirm: 'R3setPassword' }).expect(200);
      await http().get('/api/v1/profile/').set(bearer(account.tokens.access)).expect(401);
      const reused = await http()
        .post(confirmPath)
        .send({ token, password: 'Other1Password', password_confirm: 'Other1Password' })
        .expect(400);
      expect(reused.body.message).toMatch(/invalid or has expired/);
      await http().post('/api/v1/login/').send({ email: account.email, password: 'R3setPassword' }).expect(200);
    });

    it('refuses a missing or made-up reset token', async () => {
      const missing = await http()
        .post('/api/v1/password-reset-confirm/')
        .send({ password: 'R3setPassword', password_confirm: 'R3setPassword' })
        .expect(400);
      expect(missing.body.errors).toEqual({ token: ['Invalid reset token'] });
      await http()
        .post('/api/v1/password-reset-confirm/')
        .send({ token: `${randomUUID()}.made-up`, password: 'R3setPassword', password_confirm: 'R3setPassword' })
        .expect(400);
    });
  });

  describe('account deletion (crypto-shredding)', () => {
    it('keeps personal data out of the log in the clear, and unreadable for good after deletion', async () => {
      const account = await register();
      await http()
        .patch('/api/v1/profile/')
        .set(bearer(account.tokens.access))
        .send({ first_name: 'Zelda', last_name: 'Quartz' })
        .expect(200);
      const stream = `user-${account.user.id}`;
      const raw = async () =>
        (await subject.db.pool.query('SELECT data::text || metadata::text AS text FROM es_events WHERE stream_id = $1', [stream])).rows
          .map((r) => r.text)
          .join('\n');
      for (const secret of [account.email, account.username, 'Zelda', 'Quartz', PASSWORD]) expect(await raw()).not.toContain(secret);

      await http().post('/api/v1/users/delete-account/').set(bearer(account.tokens.access)).expect(200);
      await http().get('/api/v1/profile/').set(bearer(account.tokens.access)).expect(401);
      await http().post('/api/v1/login/').send({ email: account.email, password: PASSWORD }).expect(400);

      const vault = subject.app.get(IdentityContext).vault;
      const { rows } = await subject.db.pool.query("SELECT data FROM es_events WHERE stream_id = $1 AND type = 'UserRegistered'", [stream]);
      expect(await vault.decrypt(account.user.id, rows[0].data.email)).toBeNull();
      const { rowCount } = await subject.db.pool.query('SELECT 1 FROM identity_data_keys WHERE user_id = $1', [account.user.id]);
      expect(rowCount).toBe(0);
      // The email is free again, and the history (who did what, when) is still there.
      await register({ email: account.email });
      const history = await subject.db.pool.query('SELECT type FROM es_events WHERE stream_id = $1 ORDER BY stream_version', [stream]);
      expect(history.rows.map((r) => r.type)).toEqual(['UserRegistered', 'UserSignedIn', 'ProfileUpdated', 'UserDeleted']);
    });
  });
});

describe('rate limits on sign-in, registration and reset', () => {
  let subject: TestApp;
  beforeAll(async () => {
    subject = await startTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '3' });
  });
  afterAll(() => subject.close());

  it.each(['/api/v1/login/', '/api/v1/register/', '/api/v1/password-reset/'])(
    'answers 429 with the spec message past the limit on %s',
    async (path) => {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await request(subject.app.getHttpServer()).post(path).send({})).status);
      expect(statuses).toEqual([400, 400, 400, 429]);
      const limited = await request(subject.app.getHttpServer()).post(path).send({}).expect(429);
      expect(limited.body).toEqual({ message: 'Too many requests. Please try again later.' });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    },
  );
});
