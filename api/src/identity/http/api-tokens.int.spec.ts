import { createHash } from 'node:crypto';
import request from 'supertest';
import { API_TOKEN_PATTERN } from '@meshwork/contracts';
import { eventually } from '@meshwork/testkit/eventually';
import { registerAccount, registerCustomer, TEST_PASSWORD, type TestCustomer } from '@meshwork/testkit/api/accounts';
import { startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';

/**
 * API tokens end to end (issue 35) on two api instances sharing one database: what a token
 * may reach, how the plan narrows it at once, that its limits are counted in PostgreSQL
 * across instances, and that its uses are in the audit trail under its id.
 */
describe('API tokens', () => {
  let first: TestApp;
  let second: TestApp;
  let staff: string;
  beforeAll(async () => {
    first = await startTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '1000' });
    second = await startTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '1000' }, first);
    staff = (await registerAccount(first.app, 'staff', 'tokens', true)).tokens.access;
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  const on = (instance: TestApp) => request(instance.app.getHttpServer());
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const setFreePlan = (changes: object) => on(first).put('/api/v1/admin-panel/plans/free').set(bearer(staff)).send(changes).expect(200);

  async function createToken(customer: TestCustomer, body: object = { name: 'CI', scope: 'read' }) {
    const response = await customer.post('/users/api-tokens/', body).expect(201);
    return response.body as { id: string; token: string; scope: string; last_four: string };
  }

  it('is shown once, stored only as its SHA-256, listed without its secret, and refused with a bad checksum', async () => {
    const customer = await registerCustomer(first.app);
    const created = await createToken(customer, { name: 'Ticketing', scope: 'read', expires_in_days: 30 });
    expect(created.token).toMatch(API_TOKEN_PATTERN);
    expect(created.token.endsWith(created.last_four)).toBe(true);

    const { rows } = await first.db.pool.query('SELECT * FROM identity_api_tokens WHERE id = $1', [created.id]);
    expect(rows[0].token_hash).toBe(createHash('sha256').update(created.token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(created.token.slice(8, 30));
    const events = await first.db.pool.query("SELECT data::text, metadata::text FROM es_events WHERE stream_id = 'apitoken-' || $1", [
      created.id,
    ]);
    expect(events.rows).toHaveLength(1);
    expect(JSON.stringify(events.rows)).not.toContain(created.token.slice(8, 30));

    const list = await customer.get('/users/api-tokens/').expect(200);
    expect(list.body.plan_scope).toBe('read');
    expect(list.body.tokens).toEqual([expect.objectContaining({ id: created.id, name: 'Ticketing', prefix: 'mw_live_', scope: 'read' })]);
    expect(JSON.stringify(list.body)).not.toContain(created.token);

    await on(second).get('/api/v1/users/dashboard/').set(bearer(created.token)).expect(200);
    const forged = created.token.slice(0, -1) + (created.token.endsWith('0') ? '1' : '0');
    await on(first).get('/api/v1/users/dashboard/').set(bearer(forged)).expect(401);
  });

  it('is described in the OpenAPI document: the scheme, and which routes take it', async () => {
    const { body } = await on(first).get('/api/v1/openapi.json').expect(200);
    expect(body.components.securitySchemes.apiToken).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'mw_live_…' });
    expect(body.paths['/api/v1/users/dashboard'].get.security).toEqual([{ bearer: [] }, { apiToken: [] }]);
    for (const [path, method] of [
      ['/api/v1/users/api-tokens', 'post'],
      ['/api/v1/change-password', 'post'],
      ['/api/v1/users/delete-account', 'post'],
      ['/api/v1/admin-panel/dashboard', 'get'],
    ] as const)
      expect([path, body.paths[path][method].security]).toEqual([path, [{ bearer: [] }]]);
  });

  it('reads only within its scope, and never manages tokens, the password, the account or the console', async () => {
    const customer = await registerCustomer(first.app);
    const refused = await customer.post('/users/api-tokens/', { name: 'Too wide', scope: 'read_write' }).expect(400);
    expect(JSON.stringify(refused.body)).toContain('read-only');
    const { token, id } = await createToken(customer);
    const withToken = bearer(token);

    const profile = await on(first).get('/api/v1/profile/').set(withToken).expect(200);
    expect(profile.headers['ratelimit-limit']).toBe('60');
    expect(profile.headers['ratelimit-policy']).toBe('60;w=60');
    await on(first).patch('/api/v1/profile/').set(withToken).send({ first_name: 'Ada' }).expect(403);
    await on(first).get('/api/v1/users/api-tokens/').set(withToken).expect(403);
    await on(first).post('/api/v1/users/api-tokens/').set(withToken).send({ name: 'x', scope: 'read' }).expect(403);
    await on(first).delete(`/api/v1/users/api-tokens/${id}/`).set(withToken).expect(403);
    await on(first)
      .post('/api/v1/change-password/')
      .set(withToken)
      .send({ old_password: TEST_PASSWORD, new_password: 'N3wPassword!', new_password_confirm: 'N3wPassword!' })
      .expect(403);
    await on(first).post('/api/v1/users/delete-account/').set(withToken).expect(403);

    // A staff member's own token does not open the console either.
    const staffToken = (await on(first).post('/api/v1/users/api-tokens/').set(bearer(staff)).send({ name: 's', scope: 'read' }).expect(201))
      .body.token as string;
    await on(first).get('/api/v1/admin-panel/dashboard/').set(bearer(staff)).expect(200);
    const console = await on(first).get('/api/v1/admin-panel/dashboard/').set(bearer(staffToken)).expect(403);
    expect(JSON.stringify(console.body)).toContain('API tokens cannot');
  });

  it("writes within a read_write plan under the token's id in the audit trail, narrowed at once when the plan narrows", async () => {
    await setFreePlan({ api_token_scope: 'read_write' });
    try {
      const customer = await registerCustomer(first.app);
      const { token, id } = await createToken(customer, { name: 'Writer', scope: 'read_write' });
      await on(second).patch('/api/v1/profile/').set(bearer(token)).send({ first_name: 'Grace' }).expect(200);
      const { rows } = await first.db.pool.query<{ metadata: { actor: Record<string, unknown> } }>(
        "SELECT metadata FROM es_events WHERE stream_id = 'user-' || $1 AND type = 'ProfileUpdated'",
        [customer.userId],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]!.metadata.actor).toMatchObject({ userId: customer.userId, via: 'api_token', tokenId: id });
      await eventually(async () => {
        const trail = await on(first)
          .get(`/api/v1/admin-panel/audit/?resource_type=user&resource_id=${customer.userId}`)
          .set(bearer(staff));
        return JSON.stringify(trail.body).includes(`"api_token_id":"${id}"`);
      }, 'the audit trail naming the token');

      await on(second).get('/api/v1/profile/').set(bearer(token)).expect(200); // cached on the second instance
      await setFreePlan({ api_token_scope: 'read' });
      await on(first).patch('/api/v1/profile/').set(bearer(token)).send({ first_name: 'Ada' }).expect(403);
      await eventually(
        async () => (await on(second).patch('/api/v1/profile/').set(bearer(token)).send({ first_name: 'Ada' })).status === 403,
        'the narrower plan on the second instance',
      );
      await on(first).get('/api/v1/profile/').set(bearer(token)).expect(200);
      await setFreePlan({ api_token_scope: 'none' });
      await on(first).get('/api/v1/profile/').set(bearer(token)).expect(403);
    } finally {
      await setFreePlan({ api_token_scope: 'read' });
    }
  });

  it('stops at once when revoked, by its owner or by staff, and when its account is deleted', async () => {
    const customer = await registerCustomer(first.app);
    const owned = await createToken(customer, { name: 'One', scope: 'read' });
    const other = await createToken(customer, { name: 'Two', scope: 'read' });
    for (const instance of [first, second]) await on(instance).get('/api/v1/profile/').set(bearer(owned.token)).expect(200);

    await on(first).delete(`/api/v1/users/api-tokens/${owned.id}/`).set(bearer(customer.token)).expect(200);
    await on(first).get('/api/v1/profile/').set(bearer(owned.token)).expect(401);
    await eventually(async () => (await on(second).get('/api/v1/profile/').set(bearer(owned.token))).status === 401, 'the revocation');

    const staffList = await on(first).get(`/api/v1/admin-panel/users/${customer.userId}/api-tokens/`).set(bearer(staff)).expect(200);
    expect(staffList.body.tokens.map((t: { id: string; revoked_at: string | null }) => [t.id, t.revoked_at !== null])).toEqual([
      [other.id, false],
      [owned.id, true],
    ]);
    expect(JSON.stringify(staffList.body)).not.toContain(other.token);
    await on(first).delete(`/api/v1/admin-panel/users/${customer.userId}/api-tokens/${other.id}/`).set(bearer(staff)).expect(200);
    await on(first).get('/api/v1/profile/').set(bearer(other.token)).expect(401);
    const revoked = await first.db.pool.query(
      "SELECT data FROM es_events WHERE type = 'ApiTokenRevoked' AND stream_id = 'apitoken-' || $1",
      [other.id],
    );
    expect(revoked.rows[0].data).toMatchObject({ tokenId: other.id, by: 'staff' });

    const leaving = await registerCustomer(first.app);
    const doomed = await createToken(leaving);
    await on(second).get('/api/v1/profile/').set(bearer(doomed.token)).expect(200);
    await leaving.post('/users/delete-account/').expect(200);
    await on(first).get('/api/v1/profile/').set(bearer(doomed.token)).expect(401);
    await eventually(async () => (await on(second).get('/api/v1/profile/').set(bearer(doomed.token))).status === 401, 'the deletion');
  });

  it("counts the plan's requests per minute in PostgreSQL across instances: 429 with Retry-After beyond", async () => {
    await setFreePlan({ api_requests_per_minute: 4 });
    try {
      const customer = await registerCustomer(first.app);
      const { token } = await createToken(customer);
      // Not across a minute's edge (the window is the database's minute): wait for a fresh one if it is near.
      await eventually(async () => {
        const { rows } = await first.db.pool.query<{ s: number }>('SELECT extract(second FROM now())::float AS s');
        return rows[0]!.s < 50;
      }, 'a minute with time to spare');
      const remaining: string[] = [];
      for (const instance of [first, second, first, second]) {
        const answer = await on(instance).get('/api/v1/profile/').set(bearer(token)).expect(200);
        expect(answer.headers['ratelimit-limit']).toBe('4');
        remaining.push(answer.headers['ratelimit-remaining']!);
      }
      expect(remaining).toEqual(['3', '2', '1', '0']);
      const refused = await on(second).get('/api/v1/profile/').set(bearer(token)).expect(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(refused.headers['ratelimit-remaining']).toBe('0');
      expect(JSON.stringify(refused.body)).toContain('4 requests a minute');
      // Sessions keep today's behaviour: no token limits.
      const session = await customer.get('/profile/').expect(200);
      expect(session.headers['ratelimit-limit']).toBeUndefined();
    } finally {
      await setFreePlan({ api_requests_per_minute: 60 });
    }
  });
});
