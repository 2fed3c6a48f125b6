import { randomUUID } from 'node:crypto';
import { GUARDS_METADATA } from '@nestjs/common/constants';
import { CommandBus } from '@nestjs/cqrs';
import request from 'supertest';
import type { AuthResponse } from '@meshwork/contracts';
import { ChangeUserRoles, StaffGuard } from '../identity';
import { routeTable, type RouteInfo } from '../platform/http/openapi/route-table';
import { registerAccount } from '@meshwork/testkit/api/accounts';
import { startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';

const consoleGuarded = (route: RouteInfo) =>
  [route.controller, route.handler].some((target) =>
    ((Reflect.getMetadata(GUARDS_METADATA, target) ?? []) as unknown[]).includes(StaffGuard),
  );

/** A path with every parameter filled with an id that names nothing. */
const concrete = (path: string) => path.replace(/:[^/]+/g, randomUUID());

describe('auditors: read-only staff', () => {
  let subject: TestApp;
  let auditor: AuthResponse;
  const tag = randomUUID().slice(0, 6);
  const http = () => request(subject.app.getHttpServer());

  beforeAll(async () => {
    subject = await startTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '1000' });
    const signedUp = await registerAccount(subject.app, 'ida', tag);
    await subject.app.get(CommandBus).execute(new ChangeUserRoles(signedUp.user.id, { isStaff: false, isAuditor: true }, new Date()));
    auditor = signedUp;
  });
  afterAll(() => subject.close());

  it('reads the console’s screens and is told it is an auditor', async () => {
    const bearer = `Bearer ${auditor.tokens.access}`;
    const profile = await http().get('/api/v1/profile/').set('Authorization', bearer).expect(200);
    expect(profile.body).toMatchObject({ is_staff: false, is_auditor: true });
    for (const path of ['/admin-panel/users', '/admin-panel/plans', '/admin-panel/payments', '/admin-panel/dashboard/', '/models/admin/'])
      await http().get(`/api/v1${path}`).set('Authorization', bearer).expect(200);
  });

  it('is refused every console write with 403, before anything is read or changed', async () => {
    const writes = routeTable(subject.app, '/api/v1').filter((r) => consoleGuarded(r) && !['GET', 'HEAD'].includes(r.method));
    expect(writes.length).toBeGreaterThan(10);
    const head = (await subject.db.pool.query<{ max: string }>('SELECT max(position) FROM es_events')).rows[0]!.max;
    for (const route of writes) {
      const method = route.method.toLowerCase() as 'post' | 'put' | 'patch' | 'delete';
      const response = await http()[method](concrete(route.path)).set('Authorization', `Bearer ${auditor.tokens.access}`).send({});
      expect({ route: `${route.method} ${route.path}`, status: response.status, body: response.body }).toEqual({
        route: `${route.method} ${route.path}`,
        status: 403,
        body: { message: 'Auditors have read-only access: this change needs a staff member.' },
      });
    }
    expect((await subject.db.pool.query<{ max: string }>('SELECT max(position) FROM es_events')).rows[0]!.max).toBe(head);
  });
});
