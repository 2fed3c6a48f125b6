import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { AuditEntry, AuthResponse, ResourceState } from '@meshwork/contracts';
import { registerAccount, registerAuditor, registerCustomer, type TestCustomer } from '@meshwork/testkit/api/accounts';
import { caughtUp, startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';
import { AUDIT_TRAIL_PROJECTION } from '../projections/audit-trail.entities';

describe('replay: a resource as of a log position or a time', () => {
  let subject: TestApp;
  let staff: AuthResponse;
  let auditor: AuthResponse;
  let customer: TestCustomer;
  let planId: string;
  const tag = randomUUID().slice(0, 6);
  const http = () => request(subject.app.getHttpServer());
  const state = (path: string, as: AuthResponse = auditor) =>
    http().get(`/api/v1/admin-panel/audit/state/${path}`).set('Authorization', `Bearer ${as.tokens.access}`);
  /** The resource's audit entries, oldest first. */
  const history = async (type: string, id: string) =>
    (
      (
        await http()
          .get(`/api/v1/admin-panel/audit/?resource_type=${type}&resource_id=${id}`)
          .set('Authorization', `Bearer ${auditor.tokens.access}`)
          .expect(200)
      ).body.results as AuditEntry[]
    ).reverse();

  beforeAll(async () => {
    subject = await startTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '1000' });
    staff = await registerAccount(subject.app, 'staff', tag, true);
    auditor = await registerAuditor(subject.app, 'audra', tag);
    customer = await registerCustomer(subject.app);
    const asStaff = { Authorization: `Bearer ${staff.tokens.access}` };
    await http().put(`/api/v1/admin-panel/users/${customer.userId}`).set(asStaff).send({ is_active: false }).expect(200);
    const plan = await http()
      .post('/api/v1/admin-panel/plans')
      .set(asStaff)
      .send({ name: `Replay ${tag}`, price: 10, max_clients: 5, max_networks: 1, features: [] })
      .expect(201);
    planId = plan.body.id;
    await http().put(`/api/v1/admin-panel/plans/${planId}`).set(asStaff).send({ price: 12 }).expect(200);
    await caughtUp(subject, AUDIT_TRAIL_PROJECTION);
  });
  afterAll(() => subject.close());

  it('folds a user’s stream up to each point, without secrets, and lists what changed between two points', async () => {
    const [registered, signedIn, deactivated] = await history('user', customer.userId);
    expect([registered!.action, signedIn!.action, deactivated!.action]).toEqual(['UserRegistered', 'UserSignedIn', 'UserDeactivated']);

    const now = (await state(`user/${customer.userId}/`).expect(200)).body as ResourceState;
    expect(now.as_of).toMatchObject({
      position: deactivated!.position,
      version: 3,
      state: { status: 'deactivated', email: customer.email },
    });
    expect(now.compare_to).toBeNull();
    // The password hash is in the state the decider folds; auditors never see it.
    expect(JSON.stringify(now)).not.toMatch(/passwordHash|tokenHash/);

    const then = (await state(`user/${customer.userId}/?as_of=${registered!.position}&compare_to=${deactivated!.position}`).expect(200))
      .body as ResourceState;
    expect(then.as_of).toMatchObject({ position: registered!.position, version: 1, timestamp: registered!.timestamp });
    expect(then.as_of.state).toMatchObject({ status: 'active', openSessions: [] });
    expect(then.compare_to).toMatchObject({ position: deactivated!.position, version: 3 });
    // From compare_to (deactivated, which closed its session) back to as_of (just registered).
    expect(then.changes).toEqual([{ path: 'status', from: 'deactivated', to: 'active' }]);
    const signIn = (await state(`user/${customer.userId}/?as_of=${signedIn!.position}&compare_to=${registered!.position}`).expect(200))
      .body as ResourceState;
    expect(signIn.changes).toEqual([{ path: 'openSessions', from: [], to: [expect.any(String)] }]);
  });

  it('takes a time as the point: before the stream began the resource did not exist yet', async () => {
    const [created, updated] = await history('plan', planId);
    const before = new Date(Date.parse(created!.timestamp) - 60_000).toISOString();
    const empty = (await state(`plan/${planId}/?as_of=${encodeURIComponent(before)}`).expect(200)).body as ResourceState;
    expect(empty.as_of).toEqual({ position: null, timestamp: null, version: 0, state: { status: 'none' } });

    const priced = (await state(`plan/${planId}/?as_of=${updated!.timestamp}&compare_to=${created!.position}`).expect(200))
      .body as ResourceState;
    expect(priced.as_of.version).toBe(2);
    expect(priced.changes).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'terms.priceCents', from: 1000, to: 1200 })]));
  });

  it('answers 404 for what cannot be replayed or never existed, 400 for a bad point, 403 for customers', async () => {
    await state('consoleerror/x/').expect(404);
    await state(`user/${randomUUID()}/`).expect(404);
    const bad = await state(`user/${customer.userId}/?as_of=yesterday`).expect(400);
    expect(bad.body.errors).toEqual({ as_of: ['Give a log position (a whole number) or a time (ISO 8601 with offset)'] });
    const other = await registerCustomer(subject.app);
    await other.get(`/admin-panel/audit/state/user/${other.userId}/`).expect(403);
  });
});
