import request from 'supertest';
import { startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';

describe('A known path asked with the wrong method, through the real app', () => {
  let subject: TestApp;
  beforeAll(async () => {
    subject = await startTestApp();
  });
  afterAll(() => subject.close());

  const http = () => request(subject.app.getHttpServer());

  it('answers 405 with Allow and the error body, not 404', async () => {
    const response = await http().delete('/api/v1/health/system-status/').expect(405);
    expect(response.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(response.body).toEqual({ message: 'DELETE is not allowed here. Allowed: GET, HEAD, OPTIONS.' });
  });

  it('lists every method of the path, with or without the trailing slash', async () => {
    const response = await http().put('/api/v1/profile').expect(405);
    expect(response.headers.allow).toBe('GET, HEAD, OPTIONS, PATCH');
  });

  it('reads a literal path as that resource, not as an id: PATCH /admin-panel/models/audit/ is not a model', async () => {
    const response = await http().patch('/api/v1/admin-panel/models/audit/').send({ status: 'active' }).expect(405);
    expect(response.headers.allow).toBe('GET, HEAD, OPTIONS');
    const alias = await http().patch('/api/v1/models/admin/audit/').send({ status: 'active' }).expect(405);
    expect(alias.headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  it('says so before reading the body or asking who is calling', async () => {
    await http().post('/api/v1/admin-panel/dashboard/').set('Content-Type', 'application/json').send('{"broken": ').expect(405);
  });

  it('answers OPTIONS with 204 and the same Allow', async () => {
    const response = await http().options('/api/v1/admin-panel/plans/pro/').expect(204);
    expect(response.headers.allow).toBe('DELETE, GET, HEAD, OPTIONS, PUT');
  });

  it('leaves unknown paths, and the methods a path has, alone', async () => {
    await http().patch('/api/v1/no-such-thing/').expect(404);
    await http().get('/api/v1/health/ping/').expect(200);
    await http().head('/api/v1/health/ping/').expect(200);
  });
});
