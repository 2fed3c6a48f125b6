import request from 'supertest';
import { startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';

describe('HTTP errors and correlation, through the real app', () => {
  let subject: TestApp;
  beforeAll(async () => {
    subject = await startTestApp({ MAX_JSON_BODY: '10kb' });
  });
  afterAll(() => subject.close());

  const http = () => request(subject.app.getHttpServer());

  it('answers malformed JSON with 400 and a clear message', async () => {
    const response = await http().post('/api/v1/register/').set('Content-Type', 'application/json').send('{"email": ').expect(400);
    expect(response.body).toEqual({ message: 'The request body is not valid JSON.' });
  });

  it('answers an oversize body with 413, not 500', async () => {
    const response = await http()
      .post('/api/v1/register/')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ blob: 'x'.repeat(20_000) }))
      .expect(413);
    expect(response.body.message).toMatch(/too large/);
  });

  it('answers a query past 16 KB with 431 in the error body, not an empty answer and a reset', async () => {
    const filter = encodeURIComponent(JSON.stringify({ q: 'x'.repeat(40_000) }));
    const response = await http().get(`/api/v1/admin-panel/plans/?filter=${filter}`).expect(431);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body).toEqual({ message: 'The request line and headers are too large (at most 16 KB): shorten the query.' });
    await http().get('/api/v1/health/ping/').expect(200);
  });

  it("answers an unknown api path with the spec's 404 message", async () => {
    const response = await http().get('/api/v1/no-such-thing/').expect(404);
    expect(response.body).toEqual({ message: 'The requested resource was not found.' });
  });

  it('returns the caller correlation id, or makes one', async () => {
    const given = await http().get('/api/v1/health/').set('X-Correlation-Id', 'test-correlation-0001');
    expect(given.headers['x-correlation-id']).toBe('test-correlation-0001');
    const made = await http().get('/api/v1/health/').set('X-Correlation-Id', 'bad id with spaces');
    expect(made.headers['x-correlation-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves the OpenAPI document generated from the code', async () => {
    const response = await http().get('/api/v1/openapi.json').expect(200);
    expect(response.body.openapi).toMatch(/^3\./);
    expect(Object.keys(response.body.paths)).toEqual(expect.arrayContaining(['/api/v1/health', '/api/v1/health/system-status']));
  });
});
