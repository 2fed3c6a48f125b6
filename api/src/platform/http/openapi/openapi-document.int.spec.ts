import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { z } from 'zod';
import { RegisterRequest } from '@meshwork/contracts';
import { registerAccount, registerCustomer, type TestCustomer } from '@meshwork/testkit/api/accounts';
import { startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';
import { ErrorBody } from '../error-body';
import { openApiPath } from './openapi-document';
import { contractOf, isUndocumented } from './route-contract';
import { routeInputs } from './route-inputs';
import { type RouteInfo, routeTable } from './route-table';

type Operation = {
  operationId: string;
  parameters?: { name: string; in: string; content?: unknown }[];
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }>; headers?: Record<string, unknown> }>;
  security?: unknown[];
};

describe('The OpenAPI document, generated from the contracts the api validates with', () => {
  let subject: TestApp;
  let document: { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };
  let routes: RouteInfo[];
  let customer: TestCustomer;
  let staffToken: string;
  beforeAll(async () => {
    subject = await startTestApp();
    document = (await request(subject.app.getHttpServer()).get('/api/v1/openapi.json').expect(200)).body;
    routes = routeTable(subject.app, 'api/v1').filter((r) => !isUndocumented(r.controller, r.handler));
    customer = await registerCustomer(subject.app);
    staffToken = (await registerAccount(subject.app, 'openapi', String(Date.now()), true)).tokens.access;
  });
  afterAll(() => subject.close());

  const operationOf = (route: RouteInfo) => document.paths[openApiPath(route.path)]?.[route.method.toLowerCase()];
  const operations = () =>
    Object.entries(document.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));

  it('documents every route the api serves, and only those', () => {
    const served = routes.map((r) => `${r.method} ${openApiPath(r.path)}`).sort();
    const documented = operations()
      .map(({ path, method }) => `${method.toUpperCase()} ${path}`)
      .sort();
    expect(documented).toEqual(served);
    expect(documented.length).toBeGreaterThanOrEqual(67);
  });

  it("names in the site's API reference only calls the api serves", () => {
    const page = fs
      .readFileSync(path.resolve(__dirname, '../../../../../web/src/features/documentation/components/api-reference.tsx'), 'utf8')
      .replaceAll('&#123;', '{')
      .replaceAll('&#125;', '}');
    // "GET /api/v1/..." in the lists, and `curl [-X METHOD] https://host/api/v1/...` in the examples.
    const listed = [...page.matchAll(/\b(GET|POST|PUT|PATCH|DELETE) (\/api\/v1\/[\w{}/-]*)/g)].map(([, method, call]) => [method!, call!]);
    const curled = [...page.matchAll(/curl (?:-X (\w+) )?https:\/\/[^/\s]+(\/api\/v1\/[\w{}/-]*)/g)].map(([, method, call]) => [
      method ?? 'GET',
      call!,
    ]);
    const shape = (method: string, call: string) => `${method} ${call.replace(/\/$/, '').replace(/\{\w+\}/g, '{}')}`;
    const served = new Set(routes.map((r) => shape(r.method, openApiPath(r.path))));
    const named = [...listed, ...curled].map(([method, call]) => shape(method!, call!));
    expect(named.length).toBeGreaterThanOrEqual(10);
    expect(named.filter((call) => !served.has(call))).toEqual([]);
  });

  it('declares a request body for every write that reads one, from the schema its pipe validates with', () => {
    let writesWithBodies = 0;
    for (const route of routes) {
      const readsBody = routeInputs(route).some((i) => i.from === 'body' && i.schema) || !!contractOf(route.handler)?.multipart;
      expect([`${route.method} ${route.path}`, !!operationOf(route)!.requestBody]).toEqual([`${route.method} ${route.path}`, readsBody]);
      if (readsBody) writesWithBodies += 1;
    }
    expect(writesWithBodies).toBeGreaterThanOrEqual(26);
    const registerRequest: Record<string, unknown> = z.toJSONSchema(RegisterRequest, { target: 'openapi-3.0', io: 'input' });
    delete registerRequest.$schema;
    expect(document.paths['/api/v1/register']!.post!.requestBody!.content['application/json']!.schema).toEqual(registerRequest);
    const upload = document.paths['/api/v1/models/admin/upload']!.post!.requestBody!.content['multipart/form-data']!.schema;
    expect(upload.required).toEqual(expect.arrayContaining(['name', 'display_name', 'version', 'files']));
    // Console routes are canonical under admin-panel/; an older path is the same operation, numbered after it.
    expect(document.paths['/api/v1/admin-panel/models/upload']!.post!.operationId).toBe('AdminModels_upload');
    expect(document.paths['/api/v1/models/admin/upload']!.post!.operationId).toBe('AdminModels_upload_2');
    expect(document.paths['/api/v1/admin-panel/users/{id}/devices']!.get!.operationId).toBe('DevicesAdmin_devices');
    expect(document.paths['/api/v1/admin/users/{id}/devices']!.get!.operationId).toBe('DevicesAdmin_devices_2');
  });

  it('declares an answer for every operation, and the error statuses of its kind in the one error body', () => {
    const errorBody = { $ref: '#/components/schemas/ErrorBody' };
    for (const { path, method, op } of operations()) {
      const label = `${method.toUpperCase()} ${path}`;
      const [success, answer] = Object.entries(op.responses).find(([status]) => status.startsWith('2'))!;
      const schema =
        answer.content?.['application/json']?.schema ??
        answer.content?.['application/octet-stream']?.schema ??
        answer.content?.['text/event-stream']?.schema ??
        answer.content?.['text/csv']?.schema ??
        answer.content?.['application/pdf']?.schema;
      // 204 No Content has no body to declare.
      if (success !== '204') expect([label, schema && Object.keys(schema).length > 0]).toEqual([label, true]);
      const errors = Object.keys(op.responses).filter(
        (s) => s >= '400' && s !== success && !(path.startsWith('/api/v1/health') && s === '503'),
      );
      for (const status of errors)
        expect([label, status, op.responses[status]!.content!['application/json']!.schema]).toEqual([label, status, errorBody]);
      const expected = [
        ...(op.requestBody || op.parameters?.length ? ['400'] : []),
        ...(op.security ? ['401'] : []),
        ...(/^\/api\/v1\/(admin-panel|models\/admin)/.test(path) ? ['403'] : []),
        ...(path.includes('{') ? ['404'] : []),
        ...(method !== 'get' ? ['409'] : []),
      ];
      expect([label, errors]).toEqual([label, expect.arrayContaining(expected)]);
    }
    for (const path of ['/api/v1/register', '/api/v1/login', '/api/v1/password-reset', '/api/v1/contact'])
      expect(Object.keys(document.paths[path]!.post!.responses)).toContain('429');
    expect(Object.keys(document.paths['/api/v1/contact']!.post!.responses)).toContain('503');
  });

  it("describes the console's lists in react-admin's dialect: sort, range, filter, Content-Range", () => {
    const lists = { users: ['sort', 'range', 'filter'], payments: ['sort', 'range', 'filter'], plans: ['filter'] };
    for (const [resource, parameters] of Object.entries(lists)) {
      const list = document.paths[`/api/v1/admin-panel/${resource}`]!.get!;
      expect(list.parameters!.map((p) => `${p.in}:${p.name}`)).toEqual(parameters.map((name) => `query:${name}`));
      expect(list.responses['200']!.headers!['Content-Range']).toMatchObject({ required: true });
    }
    const sort = document.paths['/api/v1/admin-panel/users']!.get!.parameters![0]!.content as Record<string, { schema: unknown }>;
    expect(JSON.stringify(sort['application/json']!.schema)).toContain('"last_login"');
  });

  /** The answer's status is documented, and its body parses with the schema the document names for it. */
  function expectDocumented(response: request.Response, method: string, path: string): void {
    const route = routes.find((r) => r.method === method && openApiPath(r.path) === path)!;
    const documented = operationOf(route)!.responses[String(response.status)];
    expect([path, response.status, documented]).toEqual([path, response.status, expect.anything()]);
    const contract = contractOf(route.handler)!;
    const schema = response.status < 300 ? contract.response! : (contract.answers?.[response.status] ?? ErrorBody);
    const id = z.globalRegistry.get(schema)?.id;
    if (id) expect(documented!.content!['application/json']!.schema).toEqual({ $ref: `#/components/schemas/${id}` });
    const parsed = schema.safeParse(response.body);
    expect([path, parsed.error?.issues ?? []]).toEqual([path, []]);
  }

  it('answers as it documents: real answers parse with the schema the document names', async () => {
    const http = () => request(subject.app.getHttpServer());
    const asStaff = (path: string) => http().get(`/api/v1${path}`).set('Authorization', `Bearer ${staffToken}`);
    const name = `doc${Date.now()}`;
    const registered = await http()
      .post('/api/v1/register/')
      .send({ email: `${name}@example.com`, username: name, password: 'Str0ngPassword', password_confirm: 'Str0ngPassword' });
    expectDocumented(registered, 'POST', '/api/v1/register');
    expectDocumented(await http().post('/api/v1/register/').send({}), 'POST', '/api/v1/register');
    expectDocumented(await customer.get('/profile/'), 'GET', '/api/v1/profile');
    expectDocumented(await customer.get('/plan/'), 'GET', '/api/v1/plan');
    expectDocumented(await customer.get('/users/dashboard/'), 'GET', '/api/v1/users/dashboard');
    expectDocumented(await customer.get('/subscriptions/list/'), 'GET', '/api/v1/subscriptions/list');
    expectDocumented(await customer.get('/admin-panel/users/'), 'GET', '/api/v1/admin-panel/users');
    expectDocumented(await http().get('/api/v1/subscriptions/plans/'), 'GET', '/api/v1/subscriptions/plans');
    expectDocumented(await http().get('/api/v1/health/system-status/'), 'GET', '/api/v1/health/system-status');
    expectDocumented(await http().get('/api/v1/downloads/desktop-app-info/'), 'GET', '/api/v1/downloads/desktop-app-info');
    const users = await asStaff('/admin-panel/users/?range=[0,4]');
    expectDocumented(users, 'GET', '/api/v1/admin-panel/users');
    expect(users.headers['content-range']).toMatch(/^users 0-\d+\/\d+$/);
    expectDocumented(await asStaff('/admin-panel/plans/'), 'GET', '/api/v1/admin-panel/plans');
    expectDocumented(await asStaff('/admin-panel/dashboard/'), 'GET', '/api/v1/admin-panel/dashboard');
    expectDocumented(await asStaff('/admin-panel/models/'), 'GET', '/api/v1/admin-panel/models');
    expectDocumented(await asStaff('/models/admin/'), 'GET', '/api/v1/models/admin');
  });
});
