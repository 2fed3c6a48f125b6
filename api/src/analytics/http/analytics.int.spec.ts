import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { AnalyticsReport, AuthResponse } from '@meshwork/contracts';
import { registerAccount, registerAuditor, registerCustomer, type TestCustomer } from '@meshwork/testkit/api/accounts';
import { caughtUp, startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';
import { ANALYTICS_PROJECTION } from '../projections/analytics.entities';

describe('the analytics api', () => {
  let subject: TestApp;
  let staff: AuthResponse;
  let auditor: AuthResponse;
  let customer: TestCustomer;
  const tag = randomUUID().slice(0, 6);
  const analytics = (query: string, token: string) =>
    request(subject.app.getHttpServer()).get(`/api/v1/admin-panel/analytics/${query}`).set('Authorization', `Bearer ${token}`);

  beforeAll(async () => {
    subject = await startTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '1000' });
    staff = await registerAccount(subject.app, 'staff', tag, true);
    auditor = await registerAuditor(subject.app, 'audra', tag);
    customer = await registerCustomer(subject.app);
    await caughtUp(subject, ANALYTICS_PROJECTION);
  });
  afterAll(() => subject.close());

  it('reports the last 30 days by default, counting today’s sign-ups, to staff and auditors alike', async () => {
    const { body } = (await analytics('', staff.tokens.access).expect(200)) as { body: AnalyticsReport };
    expect(body.dateRange).toBe('30d');
    expect(body.userGrowth).toHaveLength(30);
    expect(body.to).toBe(new Date().toISOString().slice(0, 10));
    const today = body.userGrowth[body.userGrowth.length - 1]!;
    // This app's database is its own: the three accounts above are every account there is.
    expect(today).toEqual({ date: body.to, totalUsers: 3, newUsers: 3 });
    expect(body.summary).toMatchObject({ totalUsers: 3, newUsers: 3, totalRevenue: 0, activeSubscriptions: 0 });
    const asAuditor = (await analytics('?dateRange=7d', auditor.tokens.access).expect(200)).body as AnalyticsReport;
    expect(asAuditor.userGrowth).toHaveLength(7);
    expect(asAuditor.summary.totalUsers).toBe(3);
  });

  it('refuses customers and strangers, and names a bad range in the spec’s error format', async () => {
    await analytics('', customer.token).expect(403);
    await request(subject.app.getHttpServer()).get('/api/v1/admin-panel/analytics/').expect(401);
    const bad = await analytics('?dateRange=2w', staff.tokens.access).expect(400);
    expect(bad.body.errors).toEqual({ dateRange: ["Date range must be '7d', '30d', '90d' or '1y'"] });
    const extra = await analytics('?dateRange=7d&colour=red', staff.tokens.access).expect(400);
    expect(extra.body.non_field_errors.join(' ')).toMatch(/colour/);
  });
});
