import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { AuthResponse } from '@meshwork/contracts';
import { waitForProjection } from '../../platform/projections/projection-waiter';
import { registerAccount, registerAuditor, registerCustomer } from '@meshwork/testkit/api/accounts';
import { startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';

describe('console crash reports', () => {
  let subject: TestApp;
  let staff: AuthResponse;
  let auditor: AuthResponse;
  const tag = randomUUID().slice(0, 6);
  const http = () => request(subject.app.getHttpServer());
  const report = (as: string, body: object) =>
    http().post('/api/v1/admin-panel/console-errors/').set('Authorization', `Bearer ${as}`).send(body);
  const crash = (errorId: string) => ({
    error_id: errorId,
    screen: 'users.show',
    message: "Cannot read properties of undefined (reading 'email')",
    stack: 'TypeError: Cannot read properties of undefined\n    at UserShow (users/user-show.tsx:12:3)',
    url: 'http://127.0.0.1/admin/users/42/show',
  });

  beforeAll(async () => {
    subject = await startTestApp();
    staff = await registerAccount(subject.app, 'staff', tag, true);
    auditor = await registerAuditor(subject.app, 'audra', tag);
  });
  afterAll(() => subject.close());

  it("records an auditor's crash once, with its reporter, where staff read the audit trail", async () => {
    const errorId = randomUUID();
    await report(auditor.tokens.access, crash(errorId)).expect(201, { error_id: errorId });
    await report(auditor.tokens.access, crash(errorId)).expect(201, { error_id: errorId });
    const { rows } = await subject.db.pool.query<{ position: string }>('SELECT position FROM es_events WHERE stream_id = $1', [
      `consoleerror-${errorId}`,
    ]);
    expect(rows).toHaveLength(1);
    expect(await waitForProjection(subject.db.pool, 'audit_trail', Number(rows[0]!.position))).toBe(true);
    const trail = await http()
      .get(`/api/v1/admin-panel/audit/?action=ConsoleErrorReported&resource_id=${errorId}`)
      .set('Authorization', `Bearer ${staff.tokens.access}`)
      .expect(200);
    expect(trail.body.results).toHaveLength(1);
    expect(trail.body.results[0]).toMatchObject({
      resource: 'consoleerror',
      actor: { id: auditor.user.id, email: auditor.user.email, is_staff: false },
      details: { errorId, screen: 'users.show', stack: expect.stringContaining('at UserShow') },
    });
  });

  it('refuses customers and strangers, and a report that is not one, storing nothing', async () => {
    const customer = await registerCustomer(subject.app);
    await customer.post('/admin-panel/console-errors/', crash(randomUUID())).expect(403);
    await http().post('/api/v1/admin-panel/console-errors/').send(crash(randomUUID())).expect(401);
    const bad = await report(staff.tokens.access, { ...crash('not-an-id'), screen: '', message: 'x'.repeat(2001), extra: 1 }).expect(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['error_id', 'message', 'screen']);
    const { rows } = await subject.db.pool.query(
      "SELECT 1 FROM es_events WHERE type = 'ConsoleErrorReported' AND data->>'errorId' = 'not-an-id'",
    );
    expect(rows).toEqual([]);
  });
});
